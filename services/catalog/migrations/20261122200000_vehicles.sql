-- Catalog: vehicles with their brands and models; equipment with brands, models,
-- types, the services of a type, images, and the equipment of customer contracts.
-- Runs with search_path = catalog, after the parties migration (customers and
-- contracts exist). Brands, models and types are shared by the client's companies:
-- the legacy screens always read them with company 1.

CREATE TABLE marcaveiculo (
    client_id       bigint NOT NULL,
    mrcv_id         bigint NOT NULL,
    mrcv_descricao  text NOT NULL,
    mrcv_cod_fipe   text,
    mrcv_situacao   integer NOT NULL DEFAULT 1,
    PRIMARY KEY (client_id, mrcv_id)
);
CREATE UNIQUE INDEX marcaveiculo_descricao_key ON marcaveiculo (client_id, upper(mrcv_descricao));
CREATE INDEX marcaveiculo_descricao_trgm ON marcaveiculo USING gin (mrcv_descricao gin_trgm_ops);

CREATE TABLE modeloveiculo (
    client_id       bigint NOT NULL,
    mdlv_id         bigint NOT NULL,
    mdlv_mrcv_id    bigint NOT NULL,
    mdlv_descricao  text NOT NULL,
    mdlv_cod_fipe   text,
    mdlv_situacao   integer NOT NULL DEFAULT 1,
    PRIMARY KEY (client_id, mdlv_id),
    FOREIGN KEY (client_id, mdlv_mrcv_id) REFERENCES marcaveiculo (client_id, mrcv_id)
);
CREATE INDEX modeloveiculo_marca ON modeloveiculo (client_id, mdlv_mrcv_id);
CREATE INDEX modeloveiculo_descricao_trgm ON modeloveiculo USING gin (mdlv_descricao gin_trgm_ops);

CREATE TABLE veiculo (
    client_id               bigint NOT NULL,
    veic_emp_id             bigint NOT NULL,
    veic_id                 bigint NOT NULL,
    -- Upper case, no hyphen: AAA9999 (old) or AAA9A99 (Mercosul).
    veic_placa1             text NOT NULL CHECK (veic_placa1 ~ '^[A-Z]{3}[0-9][A-Z0-9][0-9]{2}$'),
    veic_placa2             text CHECK (veic_placa2 ~ '^[A-Z]{3}[0-9][A-Z0-9][0-9]{2}$'),
    veic_placa3             text CHECK (veic_placa3 ~ '^[A-Z]{3}[0-9][A-Z0-9][0-9]{2}$'),
    veic_uf                 text,
    veic_cli_id             bigint,
    veic_mrcv_id            bigint,
    veic_mdlv_id            bigint,
    veic_tipo               text,
    veic_ano_fabricacao     integer,
    veic_ano_modelo         integer,
    veic_cor                text,
    veic_chassi             text,
    veic_renavam            text,
    veic_combustivel        text,
    veic_hodometro          bigint CHECK (veic_hodometro >= 0),
    veic_tara               integer CHECK (veic_tara >= 0),
    veic_capacidade_kg      integer CHECK (veic_capacidade_kg >= 0),
    veic_capacidade_m3      integer CHECK (veic_capacidade_m3 >= 0),
    veic_tipo_rodado        text,
    veic_tipo_carroceria    text,
    veic_rntrc              text,
    veic_obs                text,
    veic_situacao           integer NOT NULL DEFAULT 1,
    veic_dta_cad            timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (client_id, veic_emp_id, veic_id),
    FOREIGN KEY (client_id, veic_emp_id, veic_cli_id) REFERENCES clientes (client_id, cli_emp_id, cli_id),
    FOREIGN KEY (client_id, veic_mrcv_id) REFERENCES marcaveiculo (client_id, mrcv_id),
    FOREIGN KEY (client_id, veic_mdlv_id) REFERENCES modeloveiculo (client_id, mdlv_id)
);
CREATE UNIQUE INDEX veiculo_placa_key ON veiculo (client_id, veic_emp_id, veic_placa1);
CREATE INDEX veiculo_placa_trgm ON veiculo USING gin (veic_placa1 gin_trgm_ops);
CREATE INDEX veiculo_chassi_trgm ON veiculo USING gin (veic_chassi gin_trgm_ops);
CREATE INDEX veiculo_cli ON veiculo (client_id, veic_emp_id, veic_cli_id);

CREATE TABLE marcaequipamento (
    client_id       bigint NOT NULL,
    mreq_id         bigint NOT NULL,
    mreq_descricao  text NOT NULL,
    mreq_situacao   integer NOT NULL DEFAULT 1,
    PRIMARY KEY (client_id, mreq_id)
);
CREATE UNIQUE INDEX marcaequipamento_descricao_key ON marcaequipamento (client_id, upper(mreq_descricao));
CREATE INDEX marcaequipamento_descricao_trgm ON marcaequipamento USING gin (mreq_descricao gin_trgm_ops);

CREATE TABLE modeloequipamento (
    client_id       bigint NOT NULL,
    mdeq_id         bigint NOT NULL,
    mdeq_mreq_id    bigint NOT NULL,
    mdeq_descricao  text NOT NULL,
    mdeq_situacao   integer NOT NULL DEFAULT 1,
    PRIMARY KEY (client_id, mdeq_id),
    FOREIGN KEY (client_id, mdeq_mreq_id) REFERENCES marcaequipamento (client_id, mreq_id)
);
CREATE INDEX modeloequipamento_marca ON modeloequipamento (client_id, mdeq_mreq_id);
CREATE INDEX modeloequipamento_descricao_trgm ON modeloequipamento USING gin (mdeq_descricao gin_trgm_ops);

CREATE TABLE tipoequipamento (
    client_id       bigint NOT NULL,
    tpeq_id         bigint NOT NULL,
    tpeq_descricao  text NOT NULL,
    tpeq_situacao   integer NOT NULL DEFAULT 1,
    PRIMARY KEY (client_id, tpeq_id)
);
CREATE UNIQUE INDEX tipoequipamento_descricao_key ON tipoequipamento (client_id, upper(tpeq_descricao));
CREATE INDEX tipoequipamento_descricao_trgm ON tipoequipamento USING gin (tpeq_descricao gin_trgm_ops);

-- Services done on equipment of a type (preventive maintenance plan). The service
-- register belongs to another module: its id is a plain column.
CREATE TABLE tipoequipamentoserv (
    client_id               bigint NOT NULL,
    teqs_id                 bigint NOT NULL,
    teqs_tpeq_id            bigint NOT NULL,
    teqs_serv_id            bigint NOT NULL,
    teqs_descricao          text NOT NULL,
    teqs_periodicidade_dias integer CHECK (teqs_periodicidade_dias > 0),
    teqs_obs                text,
    PRIMARY KEY (client_id, teqs_id),
    CONSTRAINT tipoequipamentoserv_key UNIQUE (client_id, teqs_tpeq_id, teqs_serv_id),
    FOREIGN KEY (client_id, teqs_tpeq_id) REFERENCES tipoequipamento (client_id, tpeq_id) ON DELETE CASCADE
);
CREATE INDEX tipoequipamentoserv_descricao_trgm ON tipoequipamentoserv USING gin (teqs_descricao gin_trgm_ops);

CREATE TABLE equipamento (
    client_id           bigint NOT NULL,
    eqpt_emp_id         bigint NOT NULL,
    eqpt_id             bigint NOT NULL,
    eqpt_serie          text NOT NULL,
    eqpt_descricao      text,
    eqpt_tpeq_id        bigint,
    eqpt_mreq_id        bigint,
    eqpt_mdeq_id        bigint,
    eqpt_cli_id         bigint,
    eqpt_patrimonio     text,
    eqpt_localizacao    text,
    eqpt_dta_fabricacao date,
    eqpt_dta_instalacao date,
    eqpt_dta_garantia   date,
    eqpt_obs            text,
    eqpt_situacao       integer NOT NULL DEFAULT 1,
    eqpt_dta_cad        timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (client_id, eqpt_emp_id, eqpt_id),
    FOREIGN KEY (client_id, eqpt_tpeq_id) REFERENCES tipoequipamento (client_id, tpeq_id),
    FOREIGN KEY (client_id, eqpt_mreq_id) REFERENCES marcaequipamento (client_id, mreq_id),
    FOREIGN KEY (client_id, eqpt_mdeq_id) REFERENCES modeloequipamento (client_id, mdeq_id),
    FOREIGN KEY (client_id, eqpt_emp_id, eqpt_cli_id) REFERENCES clientes (client_id, cli_emp_id, cli_id)
);
CREATE INDEX equipamento_serie_trgm ON equipamento USING gin (eqpt_serie gin_trgm_ops);
CREATE INDEX equipamento_descricao_trgm ON equipamento USING gin (eqpt_descricao gin_trgm_ops);
CREATE INDEX equipamento_patrimonio_trgm ON equipamento USING gin (eqpt_patrimonio gin_trgm_ops);
CREATE INDEX equipamento_cli ON equipamento (client_id, eqpt_emp_id, eqpt_cli_id);

-- Pictures of a piece of equipment; eqim_imagem is the stored file name.
CREATE TABLE equipamentosimg (
    client_id       bigint NOT NULL,
    eqim_emp_id     bigint NOT NULL,
    eqim_id         bigint NOT NULL,
    eqim_eqpt_id    bigint NOT NULL,
    eqim_descricao  text NOT NULL,
    eqim_imagem     text,
    eqim_usr_id     bigint,
    eqim_dta_cad    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (client_id, eqim_emp_id, eqim_id),
    FOREIGN KEY (client_id, eqim_emp_id, eqim_eqpt_id)
        REFERENCES equipamento (client_id, eqpt_emp_id, eqpt_id) ON DELETE CASCADE
);
CREATE INDEX equipamentosimg_eqpt ON equipamentosimg (client_id, eqim_emp_id, eqim_eqpt_id);
CREATE INDEX equipamentosimg_descricao_trgm ON equipamentosimg USING gin (eqim_descricao gin_trgm_ops);

-- Equipment covered by a customer contract.
CREATE TABLE contratoseqpt (
    client_id        bigint NOT NULL,
    conte_emp_id     bigint NOT NULL,
    conte_id         bigint NOT NULL,
    conte_cont_id    bigint NOT NULL,
    conte_cli_id     bigint NOT NULL,
    conte_eqpt_id    bigint NOT NULL,
    conte_descricao  text,
    conte_valor      numeric(15,2) CHECK (conte_valor >= 0),
    conte_obs        text,
    PRIMARY KEY (client_id, conte_emp_id, conte_id),
    CONSTRAINT contratoseqpt_key UNIQUE (client_id, conte_emp_id, conte_cont_id, conte_eqpt_id),
    FOREIGN KEY (client_id, conte_emp_id, conte_cont_id)
        REFERENCES contratocliente (client_id, cont_emp_id, cont_id) ON DELETE CASCADE,
    FOREIGN KEY (client_id, conte_emp_id, conte_cli_id) REFERENCES clientes (client_id, cli_emp_id, cli_id),
    FOREIGN KEY (client_id, conte_emp_id, conte_eqpt_id) REFERENCES equipamento (client_id, eqpt_emp_id, eqpt_id)
);
CREATE INDEX contratoseqpt_cont ON contratoseqpt (client_id, conte_emp_id, conte_cont_id);
CREATE INDEX contratoseqpt_descricao_trgm ON contratoseqpt USING gin (conte_descricao gin_trgm_ops);

DO $$
DECLARE t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['marcaveiculo', 'modeloveiculo', 'veiculo', 'marcaequipamento', 'modeloequipamento',
                             'tipoequipamento', 'tipoequipamentoserv', 'equipamento', 'equipamentosimg',
                             'contratoseqpt'] LOOP
        EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
        EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
        EXECUTE format('CREATE POLICY tenant ON %I USING (client_id = erp_current_client()) WITH CHECK (client_id = erp_current_client())', t);
    END LOOP;
END $$;
