-- Service orders (ordemservico): numbered per company and serie (default 'OS'), with
-- service lines, product lines, the sectors a service went through, the order's
-- readings (odometer, hour meter, fuel), its mechanics, optical prescriptions and
-- images. Runs with search_path = orders. Money numeric(15,2), quantities
-- numeric(15,4), unit prices numeric(15,4).

CREATE TABLE ordemservico (
    client_id            bigint NOT NULL,
    ords_emp_id          bigint NOT NULL,
    ords_id              bigint NOT NULL,
    ords_serie           text NOT NULL DEFAULT 'OS',
    ords_cli_id          bigint NOT NULL,
    ords_cli_desc        text,
    ords_cli_cidade      text,
    ords_veic_id         bigint,
    ords_eqpt_id         bigint,
    ords_cola_id         bigint,
    ords_km              bigint CHECK (ords_km IS NULL OR ords_km >= 0),
    ords_dta_entrada     date NOT NULL DEFAULT current_date,
    ords_hora_entrada    text,
    ords_dta_previsao    date,
    ords_dta_saida       date,
    ords_defeito         text,
    ords_diagnostico     text,
    ords_obs             text,
    ords_situacao        text NOT NULL DEFAULT 'A' CHECK (ords_situacao IN ('A', 'F', 'C')),
    ords_vlr_serv        numeric(15,2) NOT NULL DEFAULT 0,
    ords_vlr_pecas       numeric(15,2) NOT NULL DEFAULT 0,
    ords_acrescimo       numeric(15,2) NOT NULL DEFAULT 0 CHECK (ords_acrescimo >= 0),
    ords_vlr_acre        numeric(15,2) NOT NULL DEFAULT 0,
    ords_vlr_desc        numeric(15,2) NOT NULL DEFAULT 0,
    ords_vlr_total       numeric(15,2) NOT NULL DEFAULT 0,
    ords_estoque_baixado boolean NOT NULL DEFAULT false,
    ords_dta_baixa       timestamptz,
    ords_orca_id         bigint,
    ords_usr_id          bigint,
    ords_dta_cad         timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (client_id, ords_emp_id, ords_id, ords_serie)
);
CREATE INDEX ordemservico_veiculo ON ordemservico (client_id, ords_emp_id, ords_veic_id);
CREATE INDEX ordemservico_cliente ON ordemservico (client_id, ords_emp_id, ords_cli_id);

CREATE TABLE ordemservicoservico (
    client_id         bigint NOT NULL,
    ordi_ords_emp_id  bigint NOT NULL,
    ordi_ords_id      bigint NOT NULL,
    ordi_serie        text NOT NULL DEFAULT 'OS',
    ordi_id           bigint NOT NULL,
    ordi_serv_id      bigint NOT NULL,
    ordi_descricao    text,
    ordi_qtde         numeric(15,4) NOT NULL,
    ordi_vlr_unit     numeric(15,4) NOT NULL DEFAULT 0,
    ordi_vlr_desc     numeric(15,2) NOT NULL DEFAULT 0,
    ordi_vlr_acre     numeric(15,2) NOT NULL DEFAULT 0,
    ordi_vlr_total    numeric(15,2) NOT NULL DEFAULT 0,
    ordi_cola_id      bigint,
    ordi_obs          text,
    PRIMARY KEY (client_id, ordi_ords_emp_id, ordi_ords_id, ordi_serie, ordi_id),
    FOREIGN KEY (client_id, ordi_ords_emp_id, ordi_ords_id, ordi_serie) REFERENCES ordemservico ON DELETE CASCADE
);

CREATE TABLE ordemservicoproduto (
    client_id         bigint NOT NULL,
    ordp_ords_emp_id  bigint NOT NULL,
    ordp_ords_id      bigint NOT NULL,
    ordp_serie        text NOT NULL DEFAULT 'OS',
    ordp_seq          bigint NOT NULL,
    ordp_prod_id      bigint NOT NULL,
    ordp_descricao    text,
    ordp_unidade      text,
    ordp_qtde         numeric(15,4) NOT NULL,
    ordp_vlr_unit     numeric(15,4) NOT NULL DEFAULT 0,
    ordp_vlr_desc     numeric(15,2) NOT NULL DEFAULT 0,
    ordp_vlr_acre     numeric(15,2) NOT NULL DEFAULT 0,
    ordp_vlr_total    numeric(15,2) NOT NULL DEFAULT 0,
    ordp_loca_id      bigint,
    PRIMARY KEY (client_id, ordp_ords_emp_id, ordp_ords_id, ordp_serie, ordp_seq),
    FOREIGN KEY (client_id, ordp_ords_emp_id, ordp_ords_id, ordp_serie) REFERENCES ordemservico ON DELETE CASCADE
);

-- The sectors a service of the order goes through (natural key).
CREATE TABLE ordemservicoservicosetor (
    client_id   bigint NOT NULL,
    emp_id      bigint NOT NULL,
    nros        bigint NOT NULL,
    serie       text NOT NULL DEFAULT 'OS',
    id_serv     bigint NOT NULL,
    id_setor    bigint NOT NULL,
    observacao  text,
    dta_cad     timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (client_id, emp_id, nros, serie, id_serv, id_setor),
    FOREIGN KEY (client_id, emp_id, nros, serie) REFERENCES ordemservico ON DELETE CASCADE
);

-- One row of readings per order.
CREATE TABLE ordemservicoservicoleituras (
    client_id          bigint NOT NULL,
    emp_id             bigint NOT NULL,
    nros               bigint NOT NULL,
    serie              text NOT NULL DEFAULT 'OS',
    km_entrada         bigint,
    km_saida           bigint,
    horimetro_entrada  numeric(15,1),
    horimetro_saida    numeric(15,1),
    combustivel        text,
    observacao         text,
    dta_cad            timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (client_id, emp_id, nros, serie),
    FOREIGN KEY (client_id, emp_id, nros, serie) REFERENCES ordemservico ON DELETE CASCADE
);

CREATE TABLE ordemservicomecanico (
    client_id           bigint NOT NULL,
    ordm_emp_id         bigint NOT NULL,
    ordm_ords_id        bigint NOT NULL,
    ordm_serie          text NOT NULL DEFAULT 'OS',
    ordm_id             bigint NOT NULL,
    ordm_cola_id        bigint NOT NULL,
    ordm_nome           text,
    ordm_horas          numeric(15,2) NOT NULL DEFAULT 0,
    ordm_perc_comissao  numeric(7,4) NOT NULL DEFAULT 0,
    ordm_dta_inicio     date,
    ordm_dta_fim        date,
    ordm_obs            text,
    PRIMARY KEY (client_id, ordm_emp_id, ordm_ords_id, ordm_serie, ordm_id),
    FOREIGN KEY (client_id, ordm_emp_id, ordm_ords_id, ordm_serie) REFERENCES ordemservico ON DELETE CASCADE
);

-- Optical prescription lines (right eye OD, left eye OE).
CREATE TABLE ordemservicooculista (
    client_id          bigint NOT NULL,
    ordo_emp_id        bigint NOT NULL,
    ordo_ords_id       bigint NOT NULL,
    ordo_serie         text NOT NULL DEFAULT 'OS',
    ordo_id            bigint NOT NULL,
    ordo_tipo          text NOT NULL DEFAULT 'L',
    ordo_profissional  text,
    ordo_dta_receita   date,
    ordo_od_esferico   numeric(6,2),
    ordo_od_cilindrico numeric(6,2),
    ordo_od_eixo       bigint,
    ordo_od_dnp        numeric(6,2),
    ordo_od_adicao     numeric(6,2),
    ordo_oe_esferico   numeric(6,2),
    ordo_oe_cilindrico numeric(6,2),
    ordo_oe_eixo       bigint,
    ordo_oe_dnp        numeric(6,2),
    ordo_oe_adicao     numeric(6,2),
    ordo_obs           text,
    PRIMARY KEY (client_id, ordo_emp_id, ordo_ords_id, ordo_serie, ordo_id),
    FOREIGN KEY (client_id, ordo_emp_id, ordo_ords_id, ordo_serie) REFERENCES ordemservico ON DELETE CASCADE
);

-- Images of the order by position; the file lives in the gateway's uploads.
CREATE TABLE ordemservicoimagem (
    client_id      bigint NOT NULL,
    emp_id         bigint NOT NULL,
    nros           bigint NOT NULL,
    serie          text NOT NULL DEFAULT 'OS',
    posicao        bigint NOT NULL,
    arquivo        text,
    nome_original  text,
    ords_comp_doc  text,
    usr_id         bigint,
    dta_cad        timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (client_id, emp_id, nros, serie, posicao),
    FOREIGN KEY (client_id, emp_id, nros, serie) REFERENCES ordemservico ON DELETE CASCADE
);

DO $$
DECLARE t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['ordemservico', 'ordemservicoservico', 'ordemservicoproduto',
        'ordemservicoservicosetor', 'ordemservicoservicoleituras', 'ordemservicomecanico',
        'ordemservicooculista', 'ordemservicoimagem'] LOOP
        EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
        EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
        EXECUTE format('CREATE POLICY tenant ON %I USING (client_id = erp_current_client()) WITH CHECK (client_id = erp_current_client())', t);
    END LOOP;
END $$;
