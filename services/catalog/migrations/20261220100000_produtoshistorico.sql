-- Catalog: a product's history of price, cost and register changes
-- (`produtoshistorico`). Runs with search_path = catalog. Tenant table: client_id
-- first in the key, then the company; row-level security forced on
-- client_id = erp_current_client(), like the other product tables.
--
-- Rows are written by the trigger below, never by a client: one row per changed
-- field of an UPDATE of a product (sale price, cost, description, NCM, unit,
-- situation), whatever wrote it (the product screen, a purchase's price update
-- through the product register, an import). Who and from where come from the
-- transaction: the product register's hook sets `catalog.historico_usuario` and
-- `catalog.historico_origem` (set_config(.., true): they end with the
-- transaction) before the engine's UPDATE; a write that sets neither is recorded
-- without a user, as 'cadastro'.

CREATE TABLE produtoshistorico (
    client_id            bigint NOT NULL,
    prhi_emp_id          bigint NOT NULL,
    prhi_id              bigint NOT NULL,
    prhi_prod_id         bigint NOT NULL,
    prhi_data            timestamptz NOT NULL DEFAULT now(),
    prhi_usr_id          bigint,
    -- The product's field, by its legacy name (PROD_VALOR), and its label.
    prhi_campo           text NOT NULL,
    prhi_descricao       text NOT NULL,
    prhi_valor_anterior  text,
    prhi_valor_novo      text,
    prhi_origem          text NOT NULL DEFAULT 'cadastro'
        CHECK (prhi_origem IN ('cadastro', 'compra', 'importacao')),
    PRIMARY KEY (client_id, prhi_emp_id, prhi_id),
    FOREIGN KEY (client_id, prhi_emp_id, prhi_prod_id)
        REFERENCES produtos (client_id, prod_emp_id, prod_id) ON DELETE CASCADE
);
CREATE INDEX produtoshistorico_prod ON produtoshistorico (client_id, prhi_emp_id, prhi_prod_id, prhi_data DESC, prhi_id DESC);
CREATE INDEX produtoshistorico_descricao_trgm ON produtoshistorico USING gin (prhi_descricao gin_trgm_ops);

ALTER TABLE produtoshistorico ENABLE ROW LEVEL SECURITY;
ALTER TABLE produtoshistorico FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant ON produtoshistorico
    USING (client_id = erp_current_client()) WITH CHECK (client_id = erp_current_client());

-- One history row per changed field. Ids are numbered per company in id_counters,
-- as the engine numbers the registers' ids (resource = the table's name).
CREATE FUNCTION produtos_historico() RETURNS trigger LANGUAGE plpgsql
SET search_path FROM CURRENT AS $$
DECLARE
    usuario bigint := nullif(current_setting('catalog.historico_usuario', true), '')::bigint;
    origem  text := coalesce(nullif(current_setting('catalog.historico_origem', true), ''), 'cadastro');
    c       record;
    novo_id bigint;
BEGIN
    FOR c IN
        SELECT v.campo, v.descricao, v.antes, v.depois
          FROM (VALUES
                (1, 'PROD_VALOR', 'Preço de Venda', OLD.prod_valor::text, NEW.prod_valor::text),
                (2, 'PROD_CUSTO', 'Preço de Custo', OLD.prod_custo::text, NEW.prod_custo::text),
                (3, 'PROD_DESCRICAO', 'Descrição', OLD.prod_descricao, NEW.prod_descricao),
                (4, 'PROD_NCM', 'NCM', OLD.prod_ncm, NEW.prod_ncm),
                (5, 'PROD_UNID_ID', 'Unidade',
                    coalesce(OLD.prod_unid_abreviada, OLD.prod_unid_id::text),
                    coalesce(NEW.prod_unid_abreviada, NEW.prod_unid_id::text)),
                (6, 'PROD_SITUACAO', 'Situação',
                    CASE OLD.prod_situacao WHEN 1 THEN 'Ativado' ELSE 'Desativado' END,
                    CASE NEW.prod_situacao WHEN 1 THEN 'Ativado' ELSE 'Desativado' END)
               ) AS v(ordem, campo, descricao, antes, depois)
         WHERE v.antes IS DISTINCT FROM v.depois
         ORDER BY v.ordem
    LOOP
        INSERT INTO id_counters (client_id, emp_id, resource, last_id)
        VALUES (NEW.client_id, NEW.prod_emp_id, 'produtoshistorico',
                (SELECT coalesce(max(prhi_id), 0) + 1 FROM produtoshistorico
                  WHERE client_id = NEW.client_id AND prhi_emp_id = NEW.prod_emp_id))
        ON CONFLICT (client_id, emp_id, resource) DO UPDATE
        SET last_id = greatest(id_counters.last_id + 1, EXCLUDED.last_id)
        RETURNING last_id INTO novo_id;
        INSERT INTO produtoshistorico (client_id, prhi_emp_id, prhi_id, prhi_prod_id, prhi_usr_id,
                                       prhi_campo, prhi_descricao, prhi_valor_anterior, prhi_valor_novo, prhi_origem)
        VALUES (NEW.client_id, NEW.prod_emp_id, novo_id, NEW.prod_id, usuario,
                c.campo, c.descricao, c.antes, c.depois, origem);
    END LOOP;
    RETURN NULL;
END $$;
CREATE TRIGGER produtos_historico AFTER UPDATE ON produtos
    FOR EACH ROW
    WHEN (OLD.prod_valor IS DISTINCT FROM NEW.prod_valor
       OR OLD.prod_custo IS DISTINCT FROM NEW.prod_custo
       OR OLD.prod_descricao IS DISTINCT FROM NEW.prod_descricao
       OR OLD.prod_ncm IS DISTINCT FROM NEW.prod_ncm
       OR OLD.prod_unid_id IS DISTINCT FROM NEW.prod_unid_id
       OR OLD.prod_situacao IS DISTINCT FROM NEW.prod_situacao)
    EXECUTE FUNCTION produtos_historico();
