-- The customer's credit limit as catalog gives it (CLI_LIMITE_CREDITO): invoicing
-- asks finance for the customer's position only when there is one (empty or zero:
-- no limit).
ALTER TABLE clientes ADD COLUMN limite numeric(15,2);

-- A billing order invoiced past the customer's credit limit, released by a user
-- allowed to (ALTERACAO on Contas a Receber): who, when, and what the limit, the
-- open receivables and the order were.
ALTER TABLE pedido
    ADD COLUMN pedf_liberacao_usr_id bigint,
    ADD COLUMN pedf_liberacao_dta    timestamptz,
    ADD COLUMN pedf_liberacao_obs    text;

-- What finance paid of a purchase's instalment (erp.finance.titulo.situacao): a
-- partly paid instalment is settled too (CMPD_BAIXADO), which blocks cancelling.
ALTER TABLE compra_pagamentos
    ADD COLUMN cmpd_vlr_pago numeric(15,2) NOT NULL DEFAULT 0;

-- Finance's payables of a purchase as its facts tell them (one row per title:
-- what was paid, what is left, A/P/Q/C), so a purchase with anything paid is not
-- cancelled even when it has no instalment rows of its own (finance then made one
-- payable for the total).
CREATE TABLE compra_titulos (
    client_id     bigint NOT NULL,
    emp_id        bigint NOT NULL,
    comp_id       bigint NOT NULL,
    title_id      bigint NOT NULL,
    parcela       integer NOT NULL,
    vlr_pago      numeric(15,2) NOT NULL DEFAULT 0,
    saldo         numeric(15,2) NOT NULL DEFAULT 0,
    situacao      text NOT NULL,
    dta_alteracao timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (client_id, emp_id, title_id)
);
CREATE INDEX compra_titulos_compra ON compra_titulos (client_id, emp_id, comp_id);
ALTER TABLE compra_titulos ENABLE ROW LEVEL SECURITY;
ALTER TABLE compra_titulos FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant ON compra_titulos USING (client_id = erp_current_client())
    WITH CHECK (client_id = erp_current_client());
