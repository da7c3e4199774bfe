-- Stock registers: stock locations. Runs with search_path = stock.
-- Locations are per client (the legacy paths carry no company): every company of
-- the client moves stock in the same locations.

CREATE TABLE localestoque (
    client_id        bigint NOT NULL,
    loca_id          bigint NOT NULL,
    loca_descricao   text NOT NULL,
    loca_tipo        text NOT NULL DEFAULT 'P' CHECK (loca_tipo IN ('P', 'T', 'D', 'A')),
    loca_padrao      boolean NOT NULL DEFAULT false,
    loca_venda       boolean NOT NULL DEFAULT true,
    loca_obs         text,
    loca_situacao    integer NOT NULL DEFAULT 1,
    loca_dta_cad     timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (client_id, loca_id),
    -- At most one default location per client; deferred so a write can mark the
    -- new default before the previous one is cleared in the same transaction.
    CONSTRAINT localestoque_padrao_key EXCLUDE USING btree (client_id WITH =) WHERE (loca_padrao)
        DEFERRABLE INITIALLY DEFERRED
);
CREATE INDEX localestoque_descricao_trgm ON localestoque USING gin (loca_descricao gin_trgm_ops);

ALTER TABLE localestoque ENABLE ROW LEVEL SECURITY;
ALTER TABLE localestoque FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant ON localestoque
    USING (client_id = erp_current_client())
    WITH CHECK (client_id = erp_current_client());
