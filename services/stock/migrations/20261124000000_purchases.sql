-- The stock side of purchases (erp.orders.compra.finalizada / .cancelada). Runs
-- with search_path = stock.

-- What stock did with each purchase of orders: 'F' its items entered stock (one
-- movement each, origin COMPRA, origin id '{compra}/{item}'); 'C' it was
-- cancelled (the entries reversed, or, when the cancellation came first, none
-- written: a finalization that arrives after its cancellation enters nothing).
-- The two facts have separate consumers, so either may be applied first; this row,
-- locked before any balance, orders them.
CREATE TABLE compras (
    client_id        bigint NOT NULL,
    comp_emp_id      bigint NOT NULL,
    comp_id          bigint NOT NULL,
    comp_situacao    char(1) NOT NULL CHECK (comp_situacao IN ('F', 'C')),
    comp_numero      text,
    comp_serie       text,
    comp_fornecedor  text,
    comp_itens       integer NOT NULL DEFAULT 0,
    comp_finalizada  timestamptz,
    comp_cancelada   timestamptz,
    PRIMARY KEY (client_id, comp_emp_id, comp_id)
);

ALTER TABLE compras ENABLE ROW LEVEL SECURITY;
ALTER TABLE compras FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant ON compras USING (client_id = erp_current_client()) WITH CHECK (client_id = erp_current_client());

-- An entry whose document gives its whole value exactly (a purchase item's landed
-- total) keeps it: the average cost uses it instead of quantity x unit cost (the
-- unit cost is rounded to 4 places), and so do the undo and the recalculation.
-- The movement's value on the stock card is then that value.
ALTER TABLE movimentos ADD COLUMN movi_custo_total numeric(17,4) CHECK (movi_custo_total >= 0);
ALTER TABLE movimentos DROP COLUMN movi_valor;
ALTER TABLE movimentos
    ADD COLUMN movi_valor numeric(17,2) GENERATED ALWAYS AS
        (coalesce(round(movi_custo_total, 2), round(movi_qtde * movi_custo_unit, 2))) STORED;

-- The stock card's document label ('Compra 123, item 2', 'Pedido 55 série 1'...);
-- an undo says so.
ALTER TABLE movimentos
    ADD COLUMN movi_documento text GENERATED ALWAYS AS (
        CASE movi_origem
            WHEN 'COMPRA' THEN 'Compra ' || split_part(movi_origem_id, '/', 1)
                || ', item ' || split_part(movi_origem_id, '/', 2)
            WHEN 'PEDIDO' THEN 'Pedido ' || split_part(movi_origem_id, '/', 3)
                || ' série ' || split_part(movi_origem_id, '/', 2)
            WHEN 'ORDEMSERVICO' THEN 'Ordem de serviço ' || split_part(movi_origem_id, '/', 3)
                || ' série ' || split_part(movi_origem_id, '/', 2)
            WHEN 'REQUISICAO' THEN 'Requisição ' || split_part(movi_origem_id, '/', 1)
            WHEN 'TRANSFERENCIA' THEN 'Transferência ' || split_part(movi_origem_id, '/', 1)
            WHEN 'SALDOESTOQUE' THEN 'Lançamento ' || movi_origem_id
            WHEN 'CORRECAO' THEN 'Correção ' || movi_origem_id
            ELSE movi_origem || ' ' || movi_origem_id
        END
        || CASE WHEN NOT movi_estorno THEN ''
                WHEN movi_origem = 'COMPRA' THEN ' (cancelada)'
                ELSE ' (estorno)' END
    ) STORED;

-- The movements of one purchase (its cancellation reverses them).
CREATE INDEX movimentos_compra ON movimentos (client_id, movi_emp_id, (split_part(movi_origem_id, '/', 1)))
    WHERE movi_origem = 'COMPRA';
