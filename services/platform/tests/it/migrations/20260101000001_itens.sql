-- Test-only register used by the platform's integration tests.
CREATE TABLE itens (
    client_id   bigint NOT NULL,
    item_emp_id bigint NOT NULL,
    item_id     bigint NOT NULL,
    item_descricao text NOT NULL,
    item_codigo text,
    item_valor  numeric(15, 2),
    item_data   date,
    item_senha  text,
    PRIMARY KEY (client_id, item_emp_id, item_id),
    CONSTRAINT itens_codigo_key UNIQUE (client_id, item_emp_id, item_codigo)
);
CREATE INDEX itens_descricao_trgm ON itens USING gin (item_descricao gin_trgm_ops);
ALTER TABLE itens ENABLE ROW LEVEL SECURITY;
ALTER TABLE itens FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant ON itens USING (client_id = erp_current_client()) WITH CHECK (client_id = erp_current_client());
