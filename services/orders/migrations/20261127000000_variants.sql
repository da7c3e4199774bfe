-- Sale lines that name a product's grid variant, and what orders keeps of
-- catalog's grid to check and price them and to answer the sales grid. Runs with
-- search_path = orders.

-- Orders' copy of catalog's grid (erp.catalog.produtograde.*): one row per
-- variant of a product (size and colour), its description, barcode and price
-- (NULL: the product's). A removed variant stays, flagged.
CREATE TABLE produtosgrade (
    client_id   bigint NOT NULL,
    emp_id      bigint NOT NULL,
    prgr_id     bigint NOT NULL,
    excluido    boolean NOT NULL DEFAULT false,
    prod_id     bigint,
    tam_id      bigint,
    cor_id      bigint,
    descricao   text,
    cbar        text,
    valor       numeric(15,2),
    situacao    integer,
    PRIMARY KEY (client_id, emp_id, prgr_id)
);
CREATE INDEX produtosgrade_produto ON produtosgrade (client_id, emp_id, prod_id);

-- Catalog's sizes (per company) and colours (the client's: company 0), by their
-- facts (erp.catalog.tamanho.*, erp.catalog.cor.*): the names of the grid's rows
-- and columns.
CREATE TABLE tamanhos (
    client_id   bigint NOT NULL,
    emp_id      bigint NOT NULL,
    tam_id      bigint NOT NULL,
    excluido    boolean NOT NULL DEFAULT false,
    descricao   text,
    PRIMARY KEY (client_id, emp_id, tam_id)
);
CREATE TABLE cores (
    client_id   bigint NOT NULL,
    emp_id      bigint NOT NULL,
    cor_id      bigint NOT NULL,
    excluido    boolean NOT NULL DEFAULT false,
    descricao   text,
    PRIMARY KEY (client_id, emp_id, cor_id)
);

-- The variant a billing order's product line sells (catalog's PRGR_ID of the
-- line's product; NULL: none). Checked against the copy by the line's hook;
-- invoicing carries it to stock (StockLine.variant_id).
ALTER TABLE pedidoproduto ADD COLUMN pedi_prgr_id bigint;

DO $$
DECLARE t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['produtosgrade', 'tamanhos', 'cores'] LOOP
        EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
        EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
        EXECUTE format('CREATE POLICY tenant ON %I USING (client_id = erp_current_client()) WITH CHECK (client_id = erp_current_client())', t);
    END LOOP;
END $$;
