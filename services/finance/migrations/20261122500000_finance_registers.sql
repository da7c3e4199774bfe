-- Finance registers: bank accounts, card acquirers, payment methods and conditions,
-- due-date conditions, cost centres and their groups, histories.
-- Runs with search_path = finance. Tenant tables: client_id first in the key, RLS
-- forced on client_id = erp_current_client().

CREATE TABLE banco (
    client_id             bigint NOT NULL,
    bco_id                bigint NOT NULL,
    bco_emp_id            bigint NOT NULL,
    bco_descricao         text NOT NULL,
    -- COMPE code of the bank (catalog.bancosbr; another schema, so no foreign key).
    bco_compe             text CHECK (bco_compe ~ '^[0-9]{3}$'),
    bco_tipo_conta        text NOT NULL DEFAULT 'C' CHECK (bco_tipo_conta IN ('C', 'P', 'I', 'G', 'X')),
    bco_agencia           text,
    bco_agencia_dv        text,
    bco_conta             text,
    bco_conta_dv          text,
    bco_carteira          text,
    bco_convenio          text,
    bco_cod_beneficiario  text,
    bco_tipo_chave_pix    text CHECK (bco_tipo_chave_pix IN ('CPF', 'CNPJ', 'EMAIL', 'TELEFONE', 'ALEATORIA')),
    bco_chave_pix         text,
    bco_saldo_inicial     numeric(15,2) NOT NULL DEFAULT 0,
    bco_dta_saldo         date,
    bco_limite            numeric(15,2),
    bco_perc_multa        numeric(7,4),
    bco_perc_juros        numeric(7,4),
    bco_dias_protesto     integer,
    bco_instrucoes        text,
    bco_certificado       text,
    bco_chave             text,
    bco_situacao          integer NOT NULL DEFAULT 1,
    bco_dta_cad           timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (client_id, bco_emp_id, bco_id)
);
CREATE INDEX banco_descricao_trgm ON banco USING gin (bco_descricao gin_trgm_ops);
CREATE INDEX banco_compe ON banco (client_id, bco_emp_id, bco_compe);

CREATE TABLE tefadquirinte (
    client_id                    bigint NOT NULL,
    tefa_id                      bigint NOT NULL,
    tefa_adquirinte              text NOT NULL,
    tefa_cnpj                    text,
    tefa_perc_debito             numeric(7,4),
    tefa_perc_credito            numeric(7,4),
    tefa_perc_credito_parcelado  numeric(7,4),
    tefa_perc_antecipacao        numeric(7,4),
    tefa_dias_debito             integer,
    tefa_dias_credito            integer,
    tefa_situacao                integer NOT NULL DEFAULT 1,
    PRIMARY KEY (client_id, tefa_id)
);
CREATE INDEX tefadquirinte_nome_trgm ON tefadquirinte USING gin (tefa_adquirinte gin_trgm_ops);
CREATE INDEX tefadquirinte_cnpj_trgm ON tefadquirinte USING gin (tefa_cnpj gin_trgm_ops);

CREATE TABLE formapagamento (
    client_id              bigint NOT NULL,
    frmp_id                bigint NOT NULL,
    frmp_descricao         text NOT NULL,
    -- Payment type of NF-e/NFC-e (tPag).
    frmp_tipo              text NOT NULL CHECK (frmp_tipo ~ '^[0-9]{2}$'),
    frmp_tefa_id           bigint,
    frmp_perc_taxa         numeric(7,4),
    frmp_dias_compensacao  integer,
    frmp_gera_financeiro   boolean NOT NULL DEFAULT true,
    frmp_permite_troco     boolean NOT NULL DEFAULT false,
    frmp_situacao          integer NOT NULL DEFAULT 1,
    PRIMARY KEY (client_id, frmp_id),
    FOREIGN KEY (client_id, frmp_tefa_id) REFERENCES tefadquirinte (client_id, tefa_id)
);
CREATE INDEX formapagamento_descricao_trgm ON formapagamento USING gin (frmp_descricao gin_trgm_ops);
CREATE INDEX formapagamento_tipo ON formapagamento (client_id, frmp_tipo);

CREATE TABLE condicaopagamento (
    client_id            bigint NOT NULL,
    cndp_id              bigint NOT NULL,
    cndp_emp_id          bigint NOT NULL,
    cndp_descricao       text NOT NULL,
    cndp_parcelas        integer NOT NULL DEFAULT 1 CHECK (cndp_parcelas BETWEEN 1 AND 120),
    cndp_dias_primeira   integer NOT NULL DEFAULT 0 CHECK (cndp_dias_primeira >= 0),
    cndp_intervalo       integer NOT NULL DEFAULT 30 CHECK (cndp_intervalo >= 0),
    cndp_perc_entrada    numeric(7,4) NOT NULL DEFAULT 0,
    cndp_perc_desconto   numeric(7,4) NOT NULL DEFAULT 0,
    cndp_perc_acrescimo  numeric(7,4) NOT NULL DEFAULT 0,
    cndp_frmp_id         bigint,
    cndp_situacao        integer NOT NULL DEFAULT 1,
    PRIMARY KEY (client_id, cndp_emp_id, cndp_id),
    FOREIGN KEY (client_id, cndp_frmp_id) REFERENCES formapagamento (client_id, frmp_id)
);
CREATE INDEX condicaopagamento_descricao_trgm ON condicaopagamento USING gin (cndp_descricao gin_trgm_ops);

CREATE TABLE condicaovencimento (
    client_id       bigint NOT NULL,
    cndv_id         bigint NOT NULL,
    cndv_emp_id     bigint NOT NULL,
    cndv_descricao  text NOT NULL,
    cndv_obs        text,
    cndv_situacao   integer NOT NULL DEFAULT 1,
    PRIMARY KEY (client_id, cndv_emp_id, cndv_id)
);
CREATE INDEX condicaovencimento_descricao_trgm ON condicaovencimento USING gin (cndv_descricao gin_trgm_ops);

-- Due dates of a condition: day of the month, months after the issue month.
CREATE TABLE condicaovencimentodias (
    client_id       bigint NOT NULL,
    cndv_emp_id     bigint NOT NULL,
    cndv_id         bigint NOT NULL,
    id_dias         integer NOT NULL CHECK (id_dias BETWEEN 1 AND 31),
    id_mes          integer NOT NULL CHECK (id_mes BETWEEN 0 AND 24),
    cndd_descricao  text NOT NULL,
    PRIMARY KEY (client_id, cndv_emp_id, cndv_id, id_dias, id_mes),
    FOREIGN KEY (client_id, cndv_emp_id, cndv_id)
        REFERENCES condicaovencimento (client_id, cndv_emp_id, cndv_id) ON DELETE CASCADE
);
CREATE INDEX condicaovencimentodias_descricao_trgm ON condicaovencimentodias USING gin (cndd_descricao gin_trgm_ops);

CREATE TABLE grupohistoricopadrao (
    client_id       bigint NOT NULL,
    grhp_id         bigint NOT NULL,
    grhp_emp_id     bigint NOT NULL,
    grhp_descricao  text NOT NULL,
    grhp_tipo       text CHECK (grhp_tipo IN ('R', 'D')),
    grhp_situacao   integer NOT NULL DEFAULT 1,
    PRIMARY KEY (client_id, grhp_emp_id, grhp_id)
);
CREATE INDEX grupohistoricopadrao_descricao_trgm ON grupohistoricopadrao USING gin (grhp_descricao gin_trgm_ops);

-- Cost centres ("histórico padrão"): revenue or expense, optionally in a group.
CREATE TABLE historicopadrao (
    client_id       bigint NOT NULL,
    hisp_id         bigint NOT NULL,
    hisp_emp_id     bigint NOT NULL,
    hisp_descricao  text NOT NULL,
    hisp_tipo       text NOT NULL CHECK (hisp_tipo IN ('R', 'D')),
    hisp_grhp_id    bigint,
    hisp_situacao   integer NOT NULL DEFAULT 1,
    PRIMARY KEY (client_id, hisp_emp_id, hisp_id),
    FOREIGN KEY (client_id, hisp_emp_id, hisp_grhp_id)
        REFERENCES grupohistoricopadrao (client_id, grhp_emp_id, grhp_id)
);
CREATE INDEX historicopadrao_descricao_trgm ON historicopadrao USING gin (hisp_descricao gin_trgm_ops);
CREATE INDEX historicopadrao_grupo ON historicopadrao (client_id, hisp_emp_id, hisp_grhp_id);

CREATE TABLE historico (
    client_id       bigint NOT NULL,
    hist_id         bigint NOT NULL,
    hist_descricao  text NOT NULL,
    hist_tipo       text NOT NULL DEFAULT 'A' CHECK (hist_tipo IN ('C', 'D', 'A')),
    hist_situacao   integer NOT NULL DEFAULT 1,
    PRIMARY KEY (client_id, hist_id)
);
CREATE INDEX historico_descricao_trgm ON historico USING gin (hist_descricao gin_trgm_ops);

DO $$
DECLARE t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['banco', 'tefadquirinte', 'formapagamento', 'condicaopagamento', 'condicaovencimento',
                             'condicaovencimentodias', 'grupohistoricopadrao', 'historicopadrao', 'historico'] LOOP
        EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
        EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
        EXECUTE format('CREATE POLICY tenant ON %I USING (client_id = erp_current_client()) WITH CHECK (client_id = erp_current_client())', t);
    END LOOP;
END $$;
