-- The stock ledger: every quantity change is a movement row; the balance and the
-- average cost of a product in a company follow from the movements, kept in
-- `saldos` in the same transaction as each movement.

CREATE TABLE saldos (
    client_id         bigint NOT NULL,
    sald_emp_id       bigint NOT NULL,
    sald_prod_id      bigint NOT NULL,
    sald_qtde         numeric(15,4) NOT NULL DEFAULT 0,
    sald_custo_medio  numeric(15,4) NOT NULL DEFAULT 0,
    sald_atualizado   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (client_id, sald_emp_id, sald_prod_id)
);

CREATE TABLE movimentos (
    client_id             bigint NOT NULL,
    movi_emp_id           bigint NOT NULL,
    movi_id               bigint GENERATED ALWAYS AS IDENTITY,
    movi_prod_id          bigint NOT NULL,
    movi_loca_id          bigint,
    movi_tipo             char(1) NOT NULL CHECK (movi_tipo IN ('E', 'S')),
    movi_qtde             numeric(15,4) NOT NULL CHECK (movi_qtde > 0),
    movi_custo_unit       numeric(15,4) NOT NULL CHECK (movi_custo_unit >= 0),
    movi_origem           text NOT NULL,
    movi_origem_id        text NOT NULL,
    movi_saldo_apos       numeric(15,4) NOT NULL,
    movi_custo_medio_apos numeric(15,4) NOT NULL,
    movi_data             timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (client_id, movi_emp_id, movi_id)
);
CREATE INDEX movimentos_produto ON movimentos (client_id, movi_emp_id, movi_prod_id, movi_id);

-- Manual entries and exits (screen /saldoestoque).
CREATE TABLE saldoestoque (
    client_id        bigint NOT NULL,
    sald_emp_id      bigint NOT NULL,
    sald_id          bigint NOT NULL,
    sald_prod_id     bigint NOT NULL,
    sald_prod_emp_id bigint,
    sald_tipo        char(1) NOT NULL CHECK (sald_tipo IN ('E', 'S')),
    sald_qtde        numeric(15,4) NOT NULL CHECK (sald_qtde > 0),
    sald_custo_unit  numeric(15,4),
    sald_loca_id     bigint,
    sald_data        date NOT NULL DEFAULT current_date,
    sald_obs         text,
    sald_usr_id      bigint,
    PRIMARY KEY (client_id, sald_emp_id, sald_id)
);

DO $$
DECLARE t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['saldos', 'movimentos', 'saldoestoque'] LOOP
        EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
        EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
        EXECUTE format('CREATE POLICY tenant ON %I USING (client_id = erp_current_client()) WITH CHECK (client_id = erp_current_client())', t);
    END LOOP;
END $$;
