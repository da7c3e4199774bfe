-- Stock by grid variant: a product sold in sizes and colours (catalog's
-- produtosgrade, PRGR_ID) keeps, beside its own balance, a quantity per variant.
-- Runs with search_path = stock.

-- The variant a movement moves (NULL: none, the product only). The product's
-- balance and average cost are the product's whatever the variant: a variant has
-- a quantity, not a cost of its own.
ALTER TABLE movimentos ADD COLUMN movi_prgr_id bigint CHECK (movi_prgr_id > 0);
CREATE INDEX movimentos_variante ON movimentos (client_id, movi_emp_id, movi_prod_id, movi_prgr_id)
    WHERE movi_prgr_id IS NOT NULL;

-- The quantity of each variant of a product in a company, per location
-- (salg_loca_id 0: the movements without a location, when the client has no
-- default one). The variant's company quantity is the sum of its rows. Written by
-- the ledger in the transaction of each movement, under the lock of the product's
-- company balance row (`saldos`), like `saldos_local`.
CREATE TABLE saldos_grade (
    client_id     bigint NOT NULL,
    salg_emp_id   bigint NOT NULL,
    salg_prod_id  bigint NOT NULL,
    salg_prgr_id  bigint NOT NULL,
    salg_loca_id  bigint NOT NULL DEFAULT 0,
    salg_qtde     numeric(15,4) NOT NULL DEFAULT 0,
    PRIMARY KEY (client_id, salg_emp_id, salg_prod_id, salg_prgr_id, salg_loca_id)
);

ALTER TABLE saldos_grade ENABLE ROW LEVEL SECURITY;
ALTER TABLE saldos_grade FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant ON saldos_grade USING (client_id = erp_current_client()) WITH CHECK (client_id = erp_current_client());
