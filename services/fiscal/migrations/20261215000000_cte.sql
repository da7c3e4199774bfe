-- The CT-e (Conhecimento de Transporte Eletrônico, model 57, modal rodoviário)
-- of a company, typed by the user as a document (register `cte`) with its
-- rows: the NF-e it carries (`ctenotas`), the states of its route
-- (`cteufpercursos`), the new vehicles it carries (`cteveiculosnovos`) and its
-- correction letters (`ctecartacorrecaogrupo`, written by the call only).
-- Runs with search_path = fiscal; RLS forced on client_id in every table.
--
-- The number comes from the numbering (model 57) when the CT-e is first sent
-- and is kept through rejections (sent again under a new attempt's
-- `referencia`); the provider's id is stored before anything waits on it.

CREATE TABLE cte (
    client_id                 bigint NOT NULL,
    cte_id                    bigint NOT NULL,
    cte_emp_id                bigint NOT NULL,
    cte_usr_id                bigint,
    cte_dta_cad               timestamptz NOT NULL DEFAULT now(),
    cte_situacao              text NOT NULL DEFAULT 'aberto' CHECK (cte_situacao IN
        ('aberto', 'enviando', 'pendente', 'autorizado', 'rejeitado', 'denegado', 'cancelado', 'erro')),
    cte_tipo_cte              integer NOT NULL DEFAULT 1 CHECK (cte_tipo_cte BETWEEN 1 AND 4),
    cte_tipo_servico          integer NOT NULL DEFAULT 0 CHECK (cte_tipo_servico IN (0, 1, 2, 3, 4, 6, 7, 8)),
    cte_modal                 text NOT NULL DEFAULT '01' CHECK (cte_modal = '01'),
    cte_ambiente              integer NOT NULL DEFAULT 2 CHECK (cte_ambiente IN (1, 2)),
    cte_cfop                  text CHECK (cte_cfop ~ '^[1-7][0-9]{3}$'),
    cte_natureza              text,
    cte_dta_emissao           date,
    cte_frmp_id               integer NOT NULL DEFAULT 1 CHECK (cte_frmp_id BETWEEN 1 AND 3),
    -- Who takes (pays for) the service: 0 sender, 3 recipient, 4 another.
    cte_tomador               integer NOT NULL DEFAULT 0 CHECK (cte_tomador IN (0, 3, 4)),
    cte_cnpjcpf               text,
    cte_mun_env_ibge          text,
    cte_mun_env_nome          text,
    cte_mun_env_uf            text,
    cte_mun_ini_ibge          text,
    cte_mun_ini_nome          text,
    cte_mun_ini_uf            text,
    cte_mun_fim_ibge          text,
    cte_mun_fim_nome          text,
    cte_mun_fim_uf            text,
    cte_rem_cli_id            bigint,
    cte_rem_cnpjcpf           text,
    cte_rem_nome              text,
    cte_rem_ie                text,
    cte_rem_endereco          text,
    cte_rem_numero            text,
    cte_rem_bairro            text,
    cte_rem_mun_ibge          text,
    cte_rem_municipio         text,
    cte_rem_uf                text,
    cte_rem_cep               text,
    cte_dest_cli_id           bigint,
    cte_dest_cnpjcpf          text,
    cte_dest_nome             text,
    cte_dest_ie               text,
    cte_dest_endereco         text,
    cte_dest_numero           text,
    cte_dest_bairro           text,
    cte_dest_mun_ibge         text,
    cte_dest_municipio        text,
    cte_dest_uf               text,
    cte_dest_cep              text,
    cte_toma_cli_id           bigint,
    cte_toma_nome             text,
    cte_toma_ie               text,
    cte_toma_endereco         text,
    cte_toma_numero           text,
    cte_toma_bairro           text,
    cte_toma_mun_ibge         text,
    cte_toma_municipio        text,
    cte_toma_uf               text,
    cte_toma_cep              text,
    cte_vlr_frete             numeric(15,2) NOT NULL DEFAULT 0 CHECK (cte_vlr_frete >= 0),
    cte_vlr_receber           numeric(15,2) CHECK (cte_vlr_receber >= 0),
    cte_cst                   text NOT NULL DEFAULT '00' CHECK (cte_cst IN ('00', '20', '40', '41', '51', '60', '90')),
    cte_perc_red_bc           numeric(7,4) NOT NULL DEFAULT 0 CHECK (cte_perc_red_bc BETWEEN 0 AND 100),
    cte_vlr_bc_icms           numeric(15,2) CHECK (cte_vlr_bc_icms >= 0),
    cte_aliq_icms             numeric(7,4) NOT NULL DEFAULT 0 CHECK (cte_aliq_icms BETWEEN 0 AND 100),
    cte_vlr_icms              numeric(15,2) CHECK (cte_vlr_icms >= 0),
    cte_vlr_carga             numeric(15,2) CHECK (cte_vlr_carga >= 0),
    cte_produto_predominante  text,
    cte_outras_caracteristicas text,
    cte_unidade               text NOT NULL DEFAULT '01' CHECK (cte_unidade IN ('00', '01', '02', '03', '04', '05')),
    cte_tipo_medida           text,
    cte_qtde                  numeric(15,4) CHECK (cte_qtde >= 0),
    cte_rntrc                 text,
    cte_obs                   text,
    -- Set by the emission.
    cte_serie                 integer,
    cte_numero                bigint,
    cte_tentativa             integer NOT NULL DEFAULT 0,
    cte_referencia            text,
    cte_id_fiscal             text,
    cte_chave                 text,
    cte_protocolo             text,
    cte_cstat                 integer,
    cte_motivo                text,
    cte_explicacao            text,
    cte_dh_emissao            timestamptz,
    cte_dta_autorizacao       timestamptz,
    cte_nfe_xml               text,
    cte_pdf                   bytea,
    cte_cancel_justificativa  text,
    cte_cancel_protocolo      text,
    cte_dta_cancelamento      timestamptz,
    PRIMARY KEY (client_id, cte_emp_id, cte_id),
    CONSTRAINT cte_numero_key UNIQUE (client_id, cte_emp_id, cte_serie, cte_numero),
    CONSTRAINT cte_referencia_key UNIQUE (cte_referencia),
    CONSTRAINT cte_id_fiscal_key UNIQUE (cte_id_fiscal)
);
CREATE INDEX cte_emissao ON cte (client_id, cte_emp_id, cte_dta_emissao);

-- The NF-e the CT-e carries (infDoc.infNFe).
CREATE TABLE cte_notas (
    client_id          bigint NOT NULL,
    cten_emp_id        bigint NOT NULL,
    cten_cte_id        bigint NOT NULL,
    cten_id            bigint NOT NULL,
    cten_chave         text NOT NULL CHECK (cten_chave ~ '^[0-9]{44}$'),
    cten_pin           text,
    cten_dta_prevista  date,
    PRIMARY KEY (client_id, cten_emp_id, cten_cte_id, cten_id),
    CONSTRAINT cte_notas_chave_key UNIQUE (client_id, cten_emp_id, cten_cte_id, cten_chave),
    FOREIGN KEY (client_id, cten_emp_id, cten_cte_id) REFERENCES cte (client_id, cte_emp_id, cte_id) ON DELETE CASCADE
);

-- The states the route goes through, in order.
CREATE TABLE cte_uf_percursos (
    client_id    bigint NOT NULL,
    cufp_emp_id  bigint NOT NULL,
    cufp_cte_id  bigint NOT NULL,
    cufp_id      bigint NOT NULL,
    cufp_uf      text NOT NULL CHECK (cufp_uf ~ '^[A-Z]{2}$'),
    PRIMARY KEY (client_id, cufp_emp_id, cufp_cte_id, cufp_id),
    FOREIGN KEY (client_id, cufp_emp_id, cufp_cte_id) REFERENCES cte (client_id, cte_emp_id, cte_id) ON DELETE CASCADE
);

-- New vehicles carried (infCTeNorm.veicNovos).
CREATE TABLE cte_veiculos_novos (
    client_id      bigint NOT NULL,
    ctvn_emp_id    bigint NOT NULL,
    ctvn_cte_id    bigint NOT NULL,
    ctvn_id        bigint NOT NULL,
    ctvn_chassi    text NOT NULL CHECK (ctvn_chassi ~ '^[A-Z0-9]{17}$'),
    ctvn_cor       text NOT NULL,
    ctvn_desc_cor  text NOT NULL,
    ctvn_modelo    text NOT NULL,
    ctvn_vlr_unit  numeric(15,2) NOT NULL DEFAULT 0 CHECK (ctvn_vlr_unit >= 0),
    ctvn_vlr_frete numeric(15,2) NOT NULL DEFAULT 0 CHECK (ctvn_vlr_frete >= 0),
    PRIMARY KEY (client_id, ctvn_emp_id, ctvn_cte_id, ctvn_id),
    FOREIGN KEY (client_id, ctvn_emp_id, ctvn_cte_id) REFERENCES cte (client_id, cte_emp_id, cte_id) ON DELETE CASCADE
);

-- Correction letters the SEFAZ registered: one row per corrected field, the
-- letter's sequence and protocol on each.
CREATE TABLE cte_carta_correcao_grupo (
    client_id          bigint NOT NULL,
    ctecg_emp_id       bigint NOT NULL,
    ctecg_cte_id       bigint NOT NULL,
    ctecg_id           bigint NOT NULL,
    ctecg_sequencia    integer NOT NULL,
    ctecg_grupo        text NOT NULL,
    ctecg_campo        text NOT NULL,
    ctecg_valor        text NOT NULL,
    ctecg_numero_item  integer,
    ctecg_protocolo    text,
    ctecg_usr_id       bigint,
    ctecg_dta          timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (client_id, ctecg_emp_id, ctecg_cte_id, ctecg_id),
    FOREIGN KEY (client_id, ctecg_emp_id, ctecg_cte_id) REFERENCES cte (client_id, cte_emp_id, cte_id)
);

DO $$
DECLARE t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['cte', 'cte_notas', 'cte_uf_percursos', 'cte_veiculos_novos',
                             'cte_carta_correcao_grupo'] LOOP
        EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
        EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
        EXECUTE format('CREATE POLICY tenant ON %I USING (client_id = erp_current_client()) WITH CHECK (client_id = erp_current_client())', t);
    END LOOP;
END $$;

-- Only a CT-e that never was (open, rejected or refused before the SEFAZ) is
-- removed, whatever call removes it; a number it took goes back to the
-- numbering when it was the last one taken.
CREATE FUNCTION cte_exclusao() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF OLD.cte_situacao NOT IN ('aberto', 'rejeitado', 'erro') THEN
        RAISE EXCEPTION 'CT-e % não pode ser excluído (situação %)', OLD.cte_id, OLD.cte_situacao
            USING ERRCODE = 'check_violation', CONSTRAINT = 'cte_exclusao_check';
    END IF;
    IF OLD.cte_numero IS NOT NULL THEN
        UPDATE fiscal.numeracao SET num_proximo = OLD.cte_numero
        WHERE client_id = OLD.client_id AND num_emp_id = OLD.cte_emp_id AND num_modelo = '57'
          AND num_serie = OLD.cte_serie AND num_proximo = OLD.cte_numero + 1;
    END IF;
    RETURN OLD;
END $$;
CREATE TRIGGER cte_exclusao BEFORE DELETE ON cte
    FOR EACH ROW EXECUTE FUNCTION cte_exclusao();
