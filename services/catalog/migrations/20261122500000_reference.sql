-- Catalog reference tables. Runs with search_path = catalog.
--
-- Public facts (countries, states, cities, NCM, CNAE, cBenef, Brazilian banks) are
-- the same for every client: no client_id, no row-level security; the application
-- reads them and only support operators change them (enforced by the engine). Their
-- rows come from data files (migrations 20261122500001..4) or the importers
-- (erp import-ncm / import-cnae).
--
-- Per-client registers (areas, activity branches, functions, remarks, reasons,
-- works): client_id first in the key, RLS forced on client_id.

CREATE TABLE paises (
    pais_id        integer PRIMARY KEY,          -- ISO 3166-1 numeric code
    pais_descricao text NOT NULL,
    pais_sigla     text UNIQUE,                  -- ISO 3166-1 alpha-2
    pais_sigla3    text,                         -- ISO 3166-1 alpha-3
    pais_cod_bacen integer UNIQUE,               -- BACEN/Siscomex code (cPais of NF-e)
    pais_ddi       text
);
CREATE INDEX paises_descricao_trgm ON paises USING gin (pais_descricao gin_trgm_ops);
CREATE INDEX paises_sigla_trgm ON paises USING gin (pais_sigla gin_trgm_ops);

CREATE TABLE estados (
    est_id         integer PRIMARY KEY,          -- IBGE UF code
    est_sigla      text NOT NULL UNIQUE CHECK (est_sigla ~ '^[A-Z]{2}$'),
    est_descricao  text NOT NULL,
    est_regiao     text CHECK (est_regiao IN ('Norte', 'Nordeste', 'Sudeste', 'Sul', 'Centro-Oeste'))
);
CREATE INDEX estados_descricao_trgm ON estados USING gin (est_descricao gin_trgm_ops);
CREATE INDEX estados_sigla_trgm ON estados USING gin (est_sigla gin_trgm_ops);

CREATE TABLE cidades (
    cid_id         integer PRIMARY KEY,          -- IBGE 7-digit municipality code
    cid_descricao  text NOT NULL,
    est_sigla      text NOT NULL REFERENCES estados (est_sigla) ON UPDATE CASCADE,
    cid_cod_siafi  text,
    cid_ddd        text
);
CREATE INDEX cidades_descricao_trgm ON cidades USING gin (cid_descricao gin_trgm_ops);
CREATE INDEX cidades_uf ON cidades (est_sigla, cid_descricao);

CREATE TABLE ncm (
    ncm_codigo       text PRIMARY KEY CHECK (ncm_codigo ~ '^[0-9]{8}$'),
    ncm_descricao    text NOT NULL,
    ncm_data_inicio  date,
    ncm_data_fim     date,
    ncm_ato_legal    text,
    ncm_unidade      text                          -- statistical unit (uTrib of exports)
);
CREATE INDEX ncm_descricao_trgm ON ncm USING gin (ncm_descricao gin_trgm_ops);
CREATE INDEX ncm_codigo_trgm ON ncm USING gin (ncm_codigo gin_trgm_ops);

CREATE TABLE cnaes (
    cnae_codigo     text PRIMARY KEY CHECK (cnae_codigo ~ '^[0-9]{7}$'),
    cnae_descricao  text NOT NULL,
    cnae_secao      text,
    cnae_divisao    text,
    cnae_grupo      text,
    cnae_classe     text
);
CREATE INDEX cnaes_descricao_trgm ON cnaes USING gin (cnae_descricao gin_trgm_ops);
CREATE INDEX cnaes_codigo_trgm ON cnaes USING gin (cnae_codigo gin_trgm_ops);

CREATE TABLE benef (
    benef_codigo       text PRIMARY KEY CHECK (benef_codigo ~ '^[A-Z]{2}[A-Z0-9]{6}([A-Z0-9]{2})?$'),
    benef_descricao    text NOT NULL,
    benef_uf           text NOT NULL,
    benef_cst          text,                       -- CSTs the benefit applies to
    benef_data_inicio  date,
    benef_data_fim     date
);
CREATE INDEX benef_descricao_trgm ON benef USING gin (benef_descricao gin_trgm_ops);
CREATE INDEX benef_codigo_trgm ON benef USING gin (benef_codigo gin_trgm_ops);
CREATE INDEX benef_uf ON benef (benef_uf);

-- Brazilian banks (BACEN's list of participants): picked from the finance bank register.
CREATE TABLE bancosbr (
    bcobr_compe       text PRIMARY KEY CHECK (bcobr_compe ~ '^[0-9]{3}$'),
    bcobr_ispb        text NOT NULL UNIQUE CHECK (bcobr_ispb ~ '^[0-9]{8}$'),
    bcobr_cnpj        text,
    bcobr_descricao   text NOT NULL,
    bcobr_nome_curto  text
);
CREATE INDEX bancosbr_descricao_trgm ON bancosbr USING gin (bcobr_descricao gin_trgm_ops);
CREATE INDEX bancosbr_nome_curto_trgm ON bancosbr USING gin (bcobr_nome_curto gin_trgm_ops);
CREATE INDEX bancosbr_compe_trgm ON bancosbr USING gin (bcobr_compe gin_trgm_ops);
CREATE INDEX bancosbr_ispb_trgm ON bancosbr USING gin (bcobr_ispb gin_trgm_ops);
CREATE INDEX bancosbr_cnpj_trgm ON bancosbr USING gin (bcobr_cnpj gin_trgm_ops);

CREATE TABLE area (
    client_id       bigint NOT NULL,
    area_id         bigint NOT NULL,
    area_emp_id     bigint NOT NULL,
    area_descricao  text NOT NULL,
    area_situacao   integer NOT NULL DEFAULT 1,
    PRIMARY KEY (client_id, area_emp_id, area_id)
);
CREATE INDEX area_descricao_trgm ON area USING gin (area_descricao gin_trgm_ops);

CREATE TABLE ramoatividade (
    client_id       bigint NOT NULL,
    ratv_id         bigint NOT NULL,
    ratv_emp_id     bigint NOT NULL,
    ratv_descricao  text NOT NULL,
    ratv_cnae       text,
    ratv_situacao   integer NOT NULL DEFAULT 1,
    PRIMARY KEY (client_id, ratv_emp_id, ratv_id)
);
CREATE INDEX ramoatividade_descricao_trgm ON ramoatividade USING gin (ratv_descricao gin_trgm_ops);

CREATE TABLE funcao (
    client_id       bigint NOT NULL,
    func_id         bigint NOT NULL,
    func_descricao  text NOT NULL,
    func_cbo        text CHECK (func_cbo ~ '^[0-9]{6}$'),
    func_comissao   boolean NOT NULL DEFAULT false,
    func_situacao   integer NOT NULL DEFAULT 1,
    PRIMARY KEY (client_id, func_id)
);
CREATE INDEX funcao_descricao_trgm ON funcao USING gin (func_descricao gin_trgm_ops);

CREATE TABLE observacao (
    client_id       bigint NOT NULL,
    obs_id          bigint NOT NULL,
    obs_emp_id      bigint NOT NULL,
    obs_descricao   text NOT NULL,
    obs_texto       text NOT NULL,
    obs_tipo        text NOT NULL DEFAULT 'G' CHECK (obs_tipo IN ('G', 'F', 'C', 'P', 'O')),
    obs_situacao    integer NOT NULL DEFAULT 1,
    PRIMARY KEY (client_id, obs_emp_id, obs_id)
);
CREATE INDEX observacao_descricao_trgm ON observacao USING gin (obs_descricao gin_trgm_ops);
CREATE INDEX observacao_tipo ON observacao (client_id, obs_emp_id, obs_tipo);

CREATE TABLE motivos (
    client_id       bigint NOT NULL,
    mot_id          bigint NOT NULL,
    mot_descricao   text NOT NULL,
    mot_tipo        text NOT NULL DEFAULT 'O' CHECK (mot_tipo IN ('C', 'D', 'E', 'P', 'O')),
    mot_situacao    integer NOT NULL DEFAULT 1,
    PRIMARY KEY (client_id, mot_id)
);
CREATE INDEX motivos_descricao_trgm ON motivos USING gin (mot_descricao gin_trgm_ops);
CREATE INDEX motivos_tipo ON motivos (client_id, mot_tipo);

-- Works (construction sites) of a customer; the customer is referenced by id only
-- (customers are another module's table; the CNO identifies the site for eSocial/EFD).
CREATE TABLE obras (
    client_id        bigint NOT NULL,
    obra_id          bigint NOT NULL,
    obra_emp_id      bigint NOT NULL,
    obra_descricao   text NOT NULL,
    obra_cli_id      bigint,
    obra_cno         text CHECK (obra_cno ~ '^[0-9]{12}$'),
    obra_cep         text,
    obra_endereco    text,
    obra_numero      text,
    obra_complemento text,
    obra_bairro      text,
    obra_cid_id      integer REFERENCES cidades (cid_id),
    obra_dta_inicio  date,
    obra_dta_fim     date,
    obra_responsavel text,
    obra_obs         text,
    obra_situacao    integer NOT NULL DEFAULT 1,
    PRIMARY KEY (client_id, obra_emp_id, obra_id),
    CHECK (obra_dta_fim IS NULL OR obra_dta_inicio IS NULL OR obra_dta_fim >= obra_dta_inicio)
);
CREATE INDEX obras_descricao_trgm ON obras USING gin (obra_descricao gin_trgm_ops);
CREATE INDEX obras_cliente ON obras (client_id, obra_emp_id, obra_cli_id);

DO $$
DECLARE t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['area', 'ramoatividade', 'funcao', 'observacao', 'motivos', 'obras'] LOOP
        EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
        EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
        EXECUTE format('CREATE POLICY tenant ON %I USING (client_id = erp_current_client()) WITH CHECK (client_id = erp_current_client())', t);
    END LOOP;
END $$;
