-- Fiscal registers: ICMS tax rules, operation natures and document numbering.
-- Runs with search_path = fiscal. Tenant tables: client_id first in the key, RLS
-- forced on client_id = erp_current_client().

CREATE TABLE tributacao (
    client_id             bigint NOT NULL,
    ticm_id               bigint NOT NULL,
    ticm_emp_id           bigint NOT NULL,
    ticm_descricao        text NOT NULL,
    ticm_cst              text CHECK (ticm_cst ~ '^[0-9]{2}$'),
    ticm_csosn            text CHECK (ticm_csosn ~ '^[0-9]{3}$'),
    ticm_cfop             text CHECK (ticm_cfop ~ '^[1-7][0-9]{3}$'),
    ticm_perc_icms        numeric(7,4) NOT NULL DEFAULT 0,
    ticm_perc_reducao_bc  numeric(7,4) NOT NULL DEFAULT 0,
    ticm_perc_mva_st      numeric(7,4) NOT NULL DEFAULT 0,
    ticm_perc_icms_st     numeric(7,4) NOT NULL DEFAULT 0,
    ticm_perc_reducao_st  numeric(7,4) NOT NULL DEFAULT 0,
    ticm_perc_fcp         numeric(7,4) NOT NULL DEFAULT 0,
    ticm_perc_diferimento numeric(7,4) NOT NULL DEFAULT 0,
    -- Fiscal benefit code (catalog.benef; another schema, so no foreign key).
    ticm_cbenef           text,
    ticm_cst_ipi          text CHECK (ticm_cst_ipi ~ '^[0-9]{2}$'),
    ticm_perc_ipi         numeric(7,4) NOT NULL DEFAULT 0,
    ticm_cst_pis          text CHECK (ticm_cst_pis ~ '^[0-9]{2}$'),
    ticm_perc_pis         numeric(7,4) NOT NULL DEFAULT 0,
    ticm_cst_cofins       text CHECK (ticm_cst_cofins ~ '^[0-9]{2}$'),
    ticm_perc_cofins      numeric(7,4) NOT NULL DEFAULT 0,
    ticm_obs              text,
    ticm_situacao         integer NOT NULL DEFAULT 1,
    PRIMARY KEY (client_id, ticm_emp_id, ticm_id),
    CHECK (ticm_cst IS NOT NULL OR ticm_csosn IS NOT NULL)
);
CREATE INDEX tributacao_descricao_trgm ON tributacao USING gin (ticm_descricao gin_trgm_ops);

CREATE TABLE natureza (
    client_id                 bigint NOT NULL,
    nato_id                   bigint NOT NULL,
    nato_emp_id               bigint NOT NULL,
    nato_descricao            text NOT NULL,
    nato_tipo                 text NOT NULL CHECK (nato_tipo IN ('E', 'S')),
    nato_finalidade           integer NOT NULL DEFAULT 1 CHECK (nato_finalidade BETWEEN 1 AND 4),
    nato_cfop_estadual        text CHECK (nato_cfop_estadual ~ '^[1-7][0-9]{3}$'),
    nato_cfop_interestadual   text CHECK (nato_cfop_interestadual ~ '^[1-7][0-9]{3}$'),
    nato_cfop_exterior        text CHECK (nato_cfop_exterior ~ '^[1-7][0-9]{3}$'),
    nato_ticm_id              bigint,
    nato_movimenta_estoque    boolean NOT NULL DEFAULT true,
    nato_gera_financeiro      boolean NOT NULL DEFAULT true,
    nato_consumidor_final     boolean NOT NULL DEFAULT false,
    nato_obs                  text,
    nato_situacao             integer NOT NULL DEFAULT 1,
    PRIMARY KEY (client_id, nato_emp_id, nato_id),
    FOREIGN KEY (client_id, nato_emp_id, nato_ticm_id) REFERENCES tributacao (client_id, ticm_emp_id, ticm_id)
);
CREATE INDEX natureza_descricao_trgm ON natureza USING gin (nato_descricao gin_trgm_ops);
CREATE INDEX natureza_tipo ON natureza (client_id, nato_emp_id, nato_tipo);

CREATE TABLE numeracao (
    client_id      bigint NOT NULL,
    num_id         bigint NOT NULL,
    num_emp_id     bigint NOT NULL,
    num_descricao  text NOT NULL,
    num_modelo     text NOT NULL CHECK (num_modelo ~ '^[0-9]{2}$'),
    num_serie      integer NOT NULL CHECK (num_serie BETWEEN 0 AND 999),
    num_proximo    bigint NOT NULL DEFAULT 1 CHECK (num_proximo BETWEEN 1 AND 999999999),
    num_ambiente   integer NOT NULL DEFAULT 2 CHECK (num_ambiente IN (1, 2)),
    num_situacao   integer NOT NULL DEFAULT 1,
    PRIMARY KEY (client_id, num_emp_id, num_id),
    CONSTRAINT numeracao_modelo_serie_key UNIQUE (client_id, num_emp_id, num_modelo, num_serie)
);
CREATE INDEX numeracao_descricao_trgm ON numeracao USING gin (num_descricao gin_trgm_ops);

DO $$
DECLARE t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['tributacao', 'natureza', 'numeracao'] LOOP
        EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
        EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
        EXECUTE format('CREATE POLICY tenant ON %I USING (client_id = erp_current_client()) WITH CHECK (client_id = erp_current_client())', t);
    END LOOP;
END $$;
