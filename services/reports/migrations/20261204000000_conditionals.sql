-- Conditional sales as their latest state left them (erp.orders.condicional.situacao):
-- the open-goods report.
-- Runs with search_path = reports. Tenant tables: client_id first in the key, RLS
-- forced on client_id = erp_current_client().

CREATE TABLE condicionais (
    client_id    bigint NOT NULL,
    emp_id       bigint NOT NULL,
    cond_id      bigint NOT NULL,
    cli_id       bigint,
    cli_nome     text,
    dta_saida    date,
    dta_retorno  date,
    situacao     char(1) NOT NULL CHECK (situacao IN ('A', 'F', 'X')),
    versao       bigint NOT NULL,
    PRIMARY KEY (client_id, emp_id, cond_id)
);

CREATE TABLE condicionaisitens (
    client_id    bigint NOT NULL,
    emp_id       bigint NOT NULL,
    cond_id      bigint NOT NULL,
    item         bigint NOT NULL,
    prod_id      bigint NOT NULL,
    descricao    text,
    qtde         numeric(15,4) NOT NULL,
    devolvida    numeric(15,4) NOT NULL,
    vlr_unit     numeric(15,4) NOT NULL,
    PRIMARY KEY (client_id, emp_id, cond_id, item),
    FOREIGN KEY (client_id, emp_id, cond_id) REFERENCES condicionais ON DELETE CASCADE
);

DO $$
DECLARE t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['condicionais', 'condicionaisitens'] LOOP
        EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
        EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
        EXECUTE format('CREATE POLICY tenant ON %I USING (client_id = erp_current_client()) WITH CHECK (client_id = erp_current_client())', t);
    END LOOP;
END $$;
