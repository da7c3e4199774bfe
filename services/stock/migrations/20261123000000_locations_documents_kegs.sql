-- Per-location balances, the catalog's product copy (with its balance, for the
-- read-only product registers), the stock card's columns, corrections, transfers,
-- requisitions and keg tracking. Runs with search_path = stock.
--
-- Read-only registers (fichaestoque, consultaprodutos, estoqueprodutos) read real
-- tables, not views: the engine creates each register's order index on its table.

-- Quantity of a product of a company in one location, kept by the ledger in the
-- same transaction as each movement that has (or defaults to) a location.
CREATE TABLE saldos_local (
    client_id     bigint NOT NULL,
    sall_emp_id   bigint NOT NULL,
    sall_prod_id  bigint NOT NULL,
    sall_loca_id  bigint NOT NULL,
    sall_qtde     numeric(15,4) NOT NULL DEFAULT 0,
    PRIMARY KEY (client_id, sall_emp_id, sall_prod_id, sall_loca_id)
);

-- Reversals (a deleted document's undo) are marked so the last entry cost and the
-- recalculation can tell them from real entries and exits. The other columns are
-- the stock card's (fichaestoque): the day in Brasília, entry and exit columns and
-- the values.
ALTER TABLE movimentos
    ADD COLUMN movi_estorno boolean NOT NULL DEFAULT false,
    ADD COLUMN movi_dia date GENERATED ALWAYS AS ((movi_data AT TIME ZONE 'America/Sao_Paulo')::date) STORED,
    ADD COLUMN movi_qtde_entrada numeric(15,4) GENERATED ALWAYS AS (CASE WHEN movi_tipo = 'E' THEN movi_qtde ELSE 0 END) STORED,
    ADD COLUMN movi_qtde_saida numeric(15,4) GENERATED ALWAYS AS (CASE WHEN movi_tipo = 'S' THEN movi_qtde ELSE 0 END) STORED,
    ADD COLUMN movi_valor numeric(17,2) GENERATED ALWAYS AS (round(movi_qtde * movi_custo_unit, 2)) STORED,
    ADD COLUMN movi_saldo_financeiro numeric(17,2) GENERATED ALWAYS AS (round(movi_saldo_apos * movi_custo_medio_apos, 2)) STORED;

-- Stock's copy of the catalog's products (erp.catalog.produto.*; a deleted product
-- leaves the copy), with the company balance the ledger keeps beside `saldos`.
CREATE TABLE produtos (
    client_id              bigint NOT NULL,
    prod_emp_id            bigint NOT NULL,
    prod_id                bigint NOT NULL,
    prod_descricao         text NOT NULL,
    unid_abreviada         text,
    prod_valor             numeric(15,4),
    prod_custo             numeric(15,4),
    prod_imagem            text,
    prod_situacao          integer NOT NULL DEFAULT 1,
    prod_saldo             numeric(15,4) NOT NULL DEFAULT 0,
    prod_custo_medio       numeric(15,4) NOT NULL DEFAULT 0,
    prod_saldo_financeiro  numeric(17,2) GENERATED ALWAYS AS (round(prod_saldo * prod_custo_medio, 2)) STORED,
    prod_atualizado        timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (client_id, prod_emp_id, prod_id)
);
CREATE INDEX produtos_descricao_trgm ON produtos USING gin (prod_descricao gin_trgm_ops);

-- Stock counts (screen /correcoesestoque): the counted quantity; posting writes the
-- difference to the balance as an entry or an exit.
CREATE TABLE correcaoestoque (
    client_id           bigint NOT NULL,
    core_emp_id         bigint NOT NULL,
    core_id             bigint NOT NULL,
    core_prod_id        bigint NOT NULL,
    core_loca_id        bigint,
    core_qtde_contada   numeric(15,4) NOT NULL CHECK (core_qtde_contada >= 0),
    core_qtde_anterior  numeric(15,4),
    core_diferenca      numeric(15,4),
    core_tipo           char(1) CHECK (core_tipo IN ('E', 'S')),
    core_custo_unit     numeric(15,4),
    core_data           date NOT NULL DEFAULT current_date,
    core_obs            text,
    core_usr_id         bigint,
    PRIMARY KEY (client_id, core_emp_id, core_id)
);

-- Transfers between locations (screen /transferenciaestoque) and their lines.
CREATE TABLE transferencialocal (
    client_id           bigint NOT NULL,
    trlo_emp_id         bigint NOT NULL,
    trlo_id             bigint NOT NULL,
    trlo_loca_origem    bigint NOT NULL,
    trlo_loca_destino   bigint NOT NULL,
    trlo_data           date NOT NULL DEFAULT current_date,
    trlo_obs            text,
    trlo_usr_id         bigint,
    PRIMARY KEY (client_id, trlo_emp_id, trlo_id),
    CHECK (trlo_loca_origem <> trlo_loca_destino)
);

CREATE TABLE transferencialocalproduto (
    client_id     bigint NOT NULL,
    trlp_emp_id   bigint NOT NULL,
    trlp_id       bigint NOT NULL,
    trlp_trlo_id  bigint NOT NULL,
    trlp_prod_id  bigint NOT NULL,
    trlp_qtde     numeric(15,4) NOT NULL CHECK (trlp_qtde > 0),
    trlp_obs      text,
    PRIMARY KEY (client_id, trlp_emp_id, trlp_id)
);
CREATE INDEX transferencialocalproduto_trlo ON transferencialocalproduto (client_id, trlp_emp_id, trlp_trlo_id);

-- Requisitions (screen /requisicoes): stock taken for internal use or asked by a
-- quote; each line is an exit.
CREATE TABLE requisicao (
    client_id        bigint NOT NULL,
    requ_emp_id      bigint NOT NULL,
    requ_id          bigint NOT NULL,
    requ_data        date NOT NULL DEFAULT current_date,
    requ_cli_id      bigint,
    requ_loca_id     bigint,
    requ_orca_id     bigint,
    requ_orca_serie  text,
    requ_descricao   text NOT NULL,
    requ_obs         text,
    requ_usr_id      bigint,
    PRIMARY KEY (client_id, requ_emp_id, requ_id)
);

CREATE TABLE requisicaoproduto (
    client_id        bigint NOT NULL,
    reqp_emp_id      bigint NOT NULL,
    reqp_id          bigint NOT NULL,
    reqp_requ_id     bigint NOT NULL,
    reqp_prod_id     bigint NOT NULL,
    reqp_qtde        numeric(15,4) NOT NULL CHECK (reqp_qtde > 0),
    reqp_custo_unit  numeric(15,4),
    reqp_obs         text,
    PRIMARY KEY (client_id, reqp_emp_id, reqp_id)
);
CREATE INDEX requisicaoproduto_requ ON requisicaoproduto (client_id, reqp_emp_id, reqp_requ_id);

-- Kegs: the keg register, loadings (a vehicle takes kegs to a customer) with their
-- lines, and the keg movements (out to a customer, back).
CREATE TABLE barril (
    client_id        bigint NOT NULL,
    bar_emp_id       bigint NOT NULL,
    bar_id           bigint NOT NULL,
    bar_numero       text NOT NULL,
    bar_capacidade   numeric(10,2) NOT NULL CHECK (bar_capacidade > 0),
    bar_status       char(1) NOT NULL DEFAULT 'D' CHECK (bar_status IN ('D', 'C')),
    bar_cli_id       bigint,
    bar_situacao     integer NOT NULL DEFAULT 1,
    bar_obs          text,
    PRIMARY KEY (client_id, bar_emp_id, bar_id)
);
CREATE UNIQUE INDEX barril_numero_key ON barril (client_id, bar_emp_id, upper(bar_numero));

CREATE TABLE carregamentobarril (
    client_id       bigint NOT NULL,
    carb_emp_id     bigint NOT NULL,
    carb_id         bigint NOT NULL,
    carb_cli_id     bigint NOT NULL,
    carb_veic_id    bigint,
    carb_veiculo    text,
    carb_data       date NOT NULL DEFAULT current_date,
    carb_obs        text,
    carb_anexo      text,
    carb_anexo_nome text,
    carb_usr_id     bigint,
    PRIMARY KEY (client_id, carb_emp_id, carb_id)
);

CREATE TABLE carregamentobarrilp (
    client_id     bigint NOT NULL,
    carp_emp_id   bigint NOT NULL,
    carp_id       bigint NOT NULL,
    carp_carb_id  bigint NOT NULL,
    carp_bar_id   bigint NOT NULL,
    carp_prod_id  bigint,
    carp_qtde     numeric(15,4) NOT NULL DEFAULT 1 CHECK (carp_qtde > 0),
    carp_obs      text,
    PRIMARY KEY (client_id, carp_emp_id, carp_id)
);
CREATE INDEX carregamentobarrilp_carb ON carregamentobarrilp (client_id, carp_emp_id, carp_carb_id);

CREATE TABLE movimentacaobarril (
    client_id     bigint NOT NULL,
    movb_emp_id   bigint NOT NULL,
    movb_id       bigint NOT NULL,
    movb_bar_id   bigint NOT NULL,
    movb_tipo     char(1) NOT NULL CHECK (movb_tipo IN ('S', 'R')),
    movb_cli_id   bigint,
    movb_data     date NOT NULL DEFAULT current_date,
    movb_carp_id  bigint,
    movb_obs      text,
    movb_usr_id   bigint,
    PRIMARY KEY (client_id, movb_emp_id, movb_id)
);
CREATE INDEX movimentacaobarril_bar ON movimentacaobarril (client_id, movb_emp_id, movb_bar_id, movb_id);

DO $$
DECLARE t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['saldos_local', 'produtos', 'correcaoestoque', 'transferencialocal',
        'transferencialocalproduto', 'requisicao', 'requisicaoproduto', 'barril',
        'carregamentobarril', 'carregamentobarrilp', 'movimentacaobarril'] LOOP
        EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
        EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
        EXECUTE format('CREATE POLICY tenant ON %I USING (client_id = erp_current_client()) WITH CHECK (client_id = erp_current_client())', t);
    END LOOP;
END $$;
