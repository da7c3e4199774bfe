-- The MDF-e (Manifesto Eletrônico de Documentos Fiscais, model 58, road modal):
-- the header (register `mdfe`) and its rows (contractors, payments and their
-- components, origin and destination cities, the NF-e/CT-e unloaded in each
-- destination city, path states, vehicles, drivers, seals, toll vouchers).
-- Runs with search_path = fiscal; RLS forced on client_id in every table.
--
-- The header is typed by the user while 'aberto' (or after a rejection); the
-- emission writes the number it took from the numbering (kept through
-- rejections and sent again with it under the next attempt), the provider's id
-- (stored before polling), the SEFAZ's answer, the XML and the DAMDFE, and then
-- the cancel or the closing (encerramento).

CREATE TABLE mdfe (
    client_id                  bigint NOT NULL,
    mdfe_id                    bigint NOT NULL,
    mdfe_emp_id                bigint NOT NULL,
    mdfe_usr_id                bigint,
    mdfe_dta_cad               timestamptz NOT NULL DEFAULT now(),
    mdfe_tp_emit               integer NOT NULL DEFAULT 2 CHECK (mdfe_tp_emit IN (1, 2, 3)),
    mdfe_tp_transp             integer CHECK (mdfe_tp_transp IN (1, 2, 3)),
    mdfe_modal                 integer NOT NULL DEFAULT 1 CHECK (mdfe_modal = 1),
    mdfe_uf_ini                text NOT NULL,
    mdfe_uf_fim                text NOT NULL,
    mdfe_dta_viagem            date,
    mdfe_hora_viagem           text CHECK (mdfe_hora_viagem ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
    mdfe_rntrc                 text CHECK (mdfe_rntrc ~ '^[0-9]{8}$'),
    mdfe_vlr_carga             numeric(15,2) NOT NULL DEFAULT 0 CHECK (mdfe_vlr_carga >= 0),
    mdfe_c_unid                text NOT NULL DEFAULT '01' CHECK (mdfe_c_unid IN ('01', '02')),
    mdfe_q_carga               numeric(15,4) NOT NULL DEFAULT 0 CHECK (mdfe_q_carga >= 0),
    mdfe_prod_tp_carga         text CHECK (mdfe_prod_tp_carga ~ '^(0[1-9]|1[01])$'),
    mdfe_prod_descricao        text,
    mdfe_prod_ncm              text CHECK (mdfe_prod_ncm ~ '^[0-9]{8}$'),
    mdfe_prod_ean              text,
    mdfe_obs                   text,
    mdfe_obs_fisco             text,
    -- Filled by the emission.
    mdfe_serie                 integer,
    mdfe_numero                bigint,
    mdfe_ambiente              integer CHECK (mdfe_ambiente IN (1, 2)),
    mdfe_tentativa             integer NOT NULL DEFAULT 0,
    -- Our identifier at the provider, one per attempt: unique across clients, as
    -- the provider account is shared, so a lost answer is found again.
    mdfe_referencia            text,
    mdfe_id_fiscal             text,
    mdfe_situacao              text NOT NULL DEFAULT 'aberto' CHECK (mdfe_situacao IN
        ('aberto', 'enviando', 'pendente', 'autorizado', 'rejeitado', 'denegado', 'cancelado',
         'encerrado', 'erro')),
    mdfe_chave                 text,
    mdfe_protocolo             text,
    mdfe_cstat                 integer,
    mdfe_motivo                text,
    mdfe_explicacao            text,
    mdfe_qtd_cte               integer,
    mdfe_qtd_nfe               integer,
    mdfe_dta_emissao           timestamptz,
    mdfe_dta_autorizacao       timestamptz,
    mdfe_xml                   bytea,
    mdfe_pdf                   bytea,
    mdfe_cancel_justificativa  text,
    mdfe_cancel_protocolo      text,
    mdfe_dta_cancelamento      timestamptz,
    mdfe_dta_encerramento      date,
    mdfe_uf_encerramento       text,
    mdfe_mun_encerramento      text,
    mdfe_enc_protocolo         text,
    PRIMARY KEY (client_id, mdfe_emp_id, mdfe_id),
    CONSTRAINT mdfe_numero_key UNIQUE (client_id, mdfe_emp_id, mdfe_serie, mdfe_numero),
    CONSTRAINT mdfe_referencia_key UNIQUE (mdfe_referencia)
);
CREATE INDEX mdfe_emissao ON mdfe (client_id, mdfe_emp_id, mdfe_dta_emissao);

-- Every row of an MDF-e: company, MDF-e and a sequence within it; removed with it.
CREATE TABLE mdfe_contratantes (
    client_id      bigint NOT NULL,
    mdco_emp_id    bigint NOT NULL,
    mdco_mdfe_id   bigint NOT NULL,
    mdco_id        bigint NOT NULL,
    mdco_nome      text NOT NULL,
    mdco_cpf_cnpj  text NOT NULL,
    PRIMARY KEY (client_id, mdco_emp_id, mdco_mdfe_id, mdco_id),
    FOREIGN KEY (client_id, mdco_emp_id, mdco_mdfe_id) REFERENCES mdfe (client_id, mdfe_emp_id, mdfe_id) ON DELETE CASCADE
);

CREATE TABLE mdfe_pagamentos (
    client_id          bigint NOT NULL,
    mdpg_emp_id        bigint NOT NULL,
    mdpg_mdfe_id       bigint NOT NULL,
    mdpg_id            bigint NOT NULL,
    mdpg_nome          text NOT NULL,
    mdpg_cpf_cnpj      text NOT NULL,
    mdpg_vlr_contrato  numeric(15,2) NOT NULL CHECK (mdpg_vlr_contrato >= 0),
    mdpg_ind_pag       integer NOT NULL DEFAULT 0 CHECK (mdpg_ind_pag IN (0, 1)),
    mdpg_dta_vcto      date,
    mdpg_vlr_adiant    numeric(15,2) CHECK (mdpg_vlr_adiant >= 0),
    mdpg_banco         text,
    mdpg_agencia       text,
    mdpg_pix           text,
    PRIMARY KEY (client_id, mdpg_emp_id, mdpg_mdfe_id, mdpg_id),
    FOREIGN KEY (client_id, mdpg_emp_id, mdpg_mdfe_id) REFERENCES mdfe (client_id, mdfe_emp_id, mdfe_id) ON DELETE CASCADE
);

CREATE TABLE mdfe_componentes (
    client_id      bigint NOT NULL,
    mdpc_emp_id    bigint NOT NULL,
    mdpc_mdfe_id   bigint NOT NULL,
    mdpc_id        bigint NOT NULL,
    mdpc_mdpg_id   bigint NOT NULL,
    mdpc_tipo      text NOT NULL CHECK (mdpc_tipo IN ('01', '02', '03', '04', '99')),
    mdpc_vlr_comp  numeric(15,2) NOT NULL CHECK (mdpc_vlr_comp >= 0),
    mdpc_descricao text,
    PRIMARY KEY (client_id, mdpc_emp_id, mdpc_mdfe_id, mdpc_id),
    FOREIGN KEY (client_id, mdpc_emp_id, mdpc_mdfe_id) REFERENCES mdfe (client_id, mdfe_emp_id, mdfe_id) ON DELETE CASCADE,
    CONSTRAINT mdfe_componentes_pagamento_fkey FOREIGN KEY (client_id, mdpc_emp_id, mdpc_mdfe_id, mdpc_mdpg_id)
        REFERENCES mdfe_pagamentos (client_id, mdpg_emp_id, mdpg_mdfe_id, mdpg_id) ON DELETE CASCADE
);

CREATE TABLE mdfe_cidades_origem (
    client_id      bigint NOT NULL,
    mcio_emp_id    bigint NOT NULL,
    mcio_mdfe_id   bigint NOT NULL,
    mcio_id        bigint NOT NULL,
    mcio_cid_ibge  text NOT NULL CHECK (mcio_cid_ibge ~ '^[0-9]{7}$'),
    mcio_cidade    text NOT NULL,
    PRIMARY KEY (client_id, mcio_emp_id, mcio_mdfe_id, mcio_id),
    FOREIGN KEY (client_id, mcio_emp_id, mcio_mdfe_id) REFERENCES mdfe (client_id, mdfe_emp_id, mdfe_id) ON DELETE CASCADE
);

CREATE TABLE mdfe_cidades_destino (
    client_id      bigint NOT NULL,
    mcid_emp_id    bigint NOT NULL,
    mcid_mdfe_id   bigint NOT NULL,
    mcid_id        bigint NOT NULL,
    mcid_cid_ibge  text NOT NULL CHECK (mcid_cid_ibge ~ '^[0-9]{7}$'),
    mcid_cidade    text NOT NULL,
    PRIMARY KEY (client_id, mcid_emp_id, mcid_mdfe_id, mcid_id),
    FOREIGN KEY (client_id, mcid_emp_id, mcid_mdfe_id) REFERENCES mdfe (client_id, mdfe_emp_id, mdfe_id) ON DELETE CASCADE
);

CREATE TABLE mdfe_notas_cidade_destino (
    client_id      bigint NOT NULL,
    mdnc_emp_id    bigint NOT NULL,
    mdnc_mdfe_id   bigint NOT NULL,
    mdnc_id        bigint NOT NULL,
    mdnc_mcid_id   bigint NOT NULL,
    mdnc_modelo    text NOT NULL CHECK (mdnc_modelo IN ('55', '57')),
    mdnc_chave     text NOT NULL CHECK (mdnc_chave ~ '^[0-9]{44}$'),
    PRIMARY KEY (client_id, mdnc_emp_id, mdnc_mdfe_id, mdnc_id),
    FOREIGN KEY (client_id, mdnc_emp_id, mdnc_mdfe_id) REFERENCES mdfe (client_id, mdfe_emp_id, mdfe_id) ON DELETE CASCADE,
    CONSTRAINT mdfe_notas_cidade_fkey FOREIGN KEY (client_id, mdnc_emp_id, mdnc_mdfe_id, mdnc_mcid_id)
        REFERENCES mdfe_cidades_destino (client_id, mcid_emp_id, mcid_mdfe_id, mcid_id) ON DELETE CASCADE,
    CONSTRAINT mdfe_notas_chave_key UNIQUE (client_id, mdnc_emp_id, mdnc_mdfe_id, mdnc_chave)
);

CREATE TABLE mdfe_uf_percurso (
    client_id      bigint NOT NULL,
    mufp_emp_id    bigint NOT NULL,
    mufp_mdfe_id   bigint NOT NULL,
    mufp_id        bigint NOT NULL,
    mufp_uf        text NOT NULL,
    PRIMARY KEY (client_id, mufp_emp_id, mufp_mdfe_id, mufp_id),
    FOREIGN KEY (client_id, mufp_emp_id, mufp_mdfe_id) REFERENCES mdfe (client_id, mdfe_emp_id, mdfe_id) ON DELETE CASCADE
);

CREATE TABLE mdfe_vale_pedagio (
    client_id          bigint NOT NULL,
    mdvp_emp_id        bigint NOT NULL,
    mdvp_mdfe_id       bigint NOT NULL,
    mdvp_id            bigint NOT NULL,
    mdvp_cnpj_forn     text NOT NULL,
    mdvp_cpf_cnpj_pag  text,
    mdvp_n_compra      text,
    mdvp_valor         numeric(15,2) NOT NULL CHECK (mdvp_valor >= 0),
    PRIMARY KEY (client_id, mdvp_emp_id, mdvp_mdfe_id, mdvp_id),
    FOREIGN KEY (client_id, mdvp_emp_id, mdvp_mdfe_id) REFERENCES mdfe (client_id, mdfe_emp_id, mdfe_id) ON DELETE CASCADE
);

CREATE TABLE mdfe_veiculos (
    client_id      bigint NOT NULL,
    veic_emp_id    bigint NOT NULL,
    veic_mdfe_id   bigint NOT NULL,
    veic_id        bigint NOT NULL,
    veic_tipo      text NOT NULL DEFAULT 'T' CHECK (veic_tipo IN ('T', 'R')),
    veic_placa1    text NOT NULL CHECK (veic_placa1 ~ '^[A-Z]{3}[0-9][0-9A-Z][0-9]{2}$'),
    veic_renavam   text CHECK (veic_renavam ~ '^[0-9]{9,11}$'),
    veic_tara      integer NOT NULL CHECK (veic_tara >= 0),
    veic_cap_kg    integer CHECK (veic_cap_kg >= 0),
    veic_cap_m3    integer CHECK (veic_cap_m3 >= 0),
    veic_tp_rod    text CHECK (veic_tp_rod ~ '^0[1-6]$'),
    veic_tp_car    text NOT NULL CHECK (veic_tp_car ~ '^0[0-5]$'),
    veic_uf        text,
    PRIMARY KEY (client_id, veic_emp_id, veic_mdfe_id, veic_id),
    FOREIGN KEY (client_id, veic_emp_id, veic_mdfe_id) REFERENCES mdfe (client_id, mdfe_emp_id, mdfe_id) ON DELETE CASCADE
);

CREATE TABLE mdfe_motoristas (
    client_id      bigint NOT NULL,
    mdmo_emp_id    bigint NOT NULL,
    mdmo_mdfe_id   bigint NOT NULL,
    mdmo_id        bigint NOT NULL,
    mdmo_nome      text NOT NULL,
    mdmo_cpf       text NOT NULL CHECK (mdmo_cpf ~ '^[0-9]{11}$'),
    PRIMARY KEY (client_id, mdmo_emp_id, mdmo_mdfe_id, mdmo_id),
    FOREIGN KEY (client_id, mdmo_emp_id, mdmo_mdfe_id) REFERENCES mdfe (client_id, mdfe_emp_id, mdfe_id) ON DELETE CASCADE
);

CREATE TABLE mdfe_lacres (
    client_id      bigint NOT NULL,
    lacre_emp_id   bigint NOT NULL,
    lacre_mdfe_id  bigint NOT NULL,
    lacre_id       bigint NOT NULL,
    lacre_numero   text NOT NULL,
    PRIMARY KEY (client_id, lacre_emp_id, lacre_mdfe_id, lacre_id),
    FOREIGN KEY (client_id, lacre_emp_id, lacre_mdfe_id) REFERENCES mdfe (client_id, mdfe_emp_id, mdfe_id) ON DELETE CASCADE
);

DO $$
DECLARE t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['mdfe', 'mdfe_contratantes', 'mdfe_pagamentos', 'mdfe_componentes',
                             'mdfe_cidades_origem', 'mdfe_cidades_destino', 'mdfe_notas_cidade_destino',
                             'mdfe_uf_percurso', 'mdfe_vale_pedagio', 'mdfe_veiculos', 'mdfe_motoristas',
                             'mdfe_lacres'] LOOP
        EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
        EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
        EXECUTE format('CREATE POLICY tenant ON %I USING (client_id = erp_current_client()) WITH CHECK (client_id = erp_current_client())', t);
    END LOOP;
END $$;

-- Only an MDF-e that never was (open, rejected, or refused before the SEFAZ) is
-- removed, whatever call removes it; a number it took goes back to the
-- numbering when it was the last one taken (else it is a gap to void).
CREATE FUNCTION mdfe_exclusao() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF OLD.mdfe_situacao NOT IN ('aberto', 'rejeitado', 'erro') THEN
        RAISE EXCEPTION 'MDF-e % não pode ser excluído (situação %)', OLD.mdfe_id, OLD.mdfe_situacao
            USING ERRCODE = 'check_violation', CONSTRAINT = 'mdfe_exclusao_check';
    END IF;
    IF OLD.mdfe_numero IS NOT NULL THEN
        UPDATE fiscal.numeracao SET num_proximo = OLD.mdfe_numero
        WHERE client_id = OLD.client_id AND num_emp_id = OLD.mdfe_emp_id AND num_modelo = '58'
          AND num_serie = OLD.mdfe_serie AND num_proximo = OLD.mdfe_numero + 1;
    END IF;
    RETURN OLD;
END $$;
CREATE TRIGGER mdfe_exclusao BEFORE DELETE ON mdfe
    FOR EACH ROW EXECUTE FUNCTION mdfe_exclusao();
