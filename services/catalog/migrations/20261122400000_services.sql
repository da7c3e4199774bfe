-- Catalog: services and their groups, types and sectors.
-- Runs with search_path = catalog. Tenant tables: client_id first in the key, then
-- the company column when the register is per company; row-level security forced on
-- client_id = erp_current_client(). Service groups and types carry no company
-- (spec §3) and are shared by the client's companies. The CNAE is a plain column
-- (the CNAE table is a global register of another module).

CREATE TABLE gruposervico (
    client_id      bigint NOT NULL,
    grps_id        bigint NOT NULL,
    grps_descricao text NOT NULL,
    grps_situacao  integer NOT NULL DEFAULT 1 CHECK (grps_situacao IN (0, 1)),
    PRIMARY KEY (client_id, grps_id)
);
CREATE INDEX gruposervico_descricao_trgm ON gruposervico USING gin (grps_descricao gin_trgm_ops);

CREATE TABLE tiposervico (
    client_id      bigint NOT NULL,
    tips_id        bigint NOT NULL,
    tips_descricao text NOT NULL,
    tips_situacao  integer NOT NULL DEFAULT 1 CHECK (tips_situacao IN (0, 1)),
    PRIMARY KEY (client_id, tips_id)
);
CREATE INDEX tiposervico_descricao_trgm ON tiposervico USING gin (tips_descricao gin_trgm_ops);

CREATE TABLE setorservico (
    client_id      bigint NOT NULL,
    sets_emp_id    bigint NOT NULL,
    sets_id        bigint NOT NULL,
    sets_descricao text NOT NULL,
    sets_situacao  integer NOT NULL DEFAULT 1 CHECK (sets_situacao IN (0, 1)),
    PRIMARY KEY (client_id, sets_emp_id, sets_id)
);
CREATE INDEX setorservico_descricao_trgm ON setorservico USING gin (sets_descricao gin_trgm_ops);

CREATE TABLE servico (
    client_id             bigint NOT NULL,
    serv_emp_id           bigint NOT NULL,
    serv_id               bigint NOT NULL,
    serv_descricao        text NOT NULL,
    serv_referencia       text,
    serv_vlr_base         numeric(15,2) CHECK (serv_vlr_base >= 0),
    serv_grps_id          bigint,
    serv_tips_id          bigint,
    serv_sets_id          bigint,
    serv_tempo_estimado   numeric(9,2) CHECK (serv_tempo_estimado >= 0),
    serv_perc_comissao    numeric(7,4) CHECK (serv_perc_comissao BETWEEN 0 AND 100),
    serv_codigo_lc116     text CHECK (serv_codigo_lc116 ~ '^[0-9]{2}\.[0-9]{2}$'),
    serv_codigo_municipal text,
    serv_cnae             text CHECK (serv_cnae ~ '^[0-9]{7}$'),
    serv_perc_iss         numeric(7,4) CHECK (serv_perc_iss BETWEEN 0 AND 100),
    serv_situacao         integer NOT NULL DEFAULT 1 CHECK (serv_situacao IN (0, 1)),
    serv_obs              text,
    serv_dta_cad          timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (client_id, serv_emp_id, serv_id),
    FOREIGN KEY (client_id, serv_grps_id) REFERENCES gruposervico (client_id, grps_id),
    FOREIGN KEY (client_id, serv_tips_id) REFERENCES tiposervico (client_id, tips_id),
    FOREIGN KEY (client_id, serv_emp_id, serv_sets_id) REFERENCES setorservico (client_id, sets_emp_id, sets_id)
);
CREATE INDEX servico_descricao_trgm ON servico USING gin (serv_descricao gin_trgm_ops);
CREATE INDEX servico_referencia_trgm ON servico USING gin (serv_referencia gin_trgm_ops);
CREATE INDEX servico_grupo ON servico (client_id, serv_emp_id, serv_grps_id);
CREATE INDEX servico_tipo ON servico (client_id, serv_emp_id, serv_tips_id);
CREATE INDEX servico_setor ON servico (client_id, serv_emp_id, serv_sets_id);

DO $$
DECLARE t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['gruposervico', 'tiposervico', 'setorservico', 'servico'] LOOP
        EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
        EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
        EXECUTE format('CREATE POLICY tenant ON %I USING (client_id = erp_current_client()) WITH CHECK (client_id = erp_current_client())', t);
    END LOOP;
END $$;
