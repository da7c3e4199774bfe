-- Orders: quotes, billing orders, conditional sales, service orders, promotions, and
-- the copies of catalog rows the documents need. Runs with search_path = orders.
-- Money numeric(15,2), quantities numeric(15,4), unit prices numeric(15,4).

-- What orders knows of catalog (kept from erp.catalog.* events).
CREATE TABLE clientes (
    client_id   bigint NOT NULL,
    emp_id      bigint NOT NULL,
    cli_id      bigint NOT NULL,
    descricao   text NOT NULL,
    cidade      text,
    uf          text,
    excluido    boolean NOT NULL DEFAULT false,
    PRIMARY KEY (client_id, emp_id, cli_id)
);
CREATE TABLE produtos (
    client_id   bigint NOT NULL,
    emp_id      bigint NOT NULL,
    prod_id     bigint NOT NULL,
    descricao   text NOT NULL,
    unidade     text,
    valor       numeric(15,4),
    custo       numeric(15,4),
    excluido    boolean NOT NULL DEFAULT false,
    PRIMARY KEY (client_id, emp_id, prod_id)
);
CREATE TABLE servicos (
    client_id   bigint NOT NULL,
    emp_id      bigint NOT NULL,
    serv_id     bigint NOT NULL,
    descricao   text NOT NULL,
    valor       numeric(15,4),
    excluido    boolean NOT NULL DEFAULT false,
    PRIMARY KEY (client_id, emp_id, serv_id)
);

-- Quotes.
CREATE TABLE orcamento (
    client_id       bigint NOT NULL,
    orca_emp_id     bigint NOT NULL,
    orca_id         bigint NOT NULL,
    orca_serie      text NOT NULL DEFAULT 'ORC',
    orca_cli_id     bigint NOT NULL,
    orca_cli_desc   text,
    orca_veic_id    bigint,
    orca_cola_id    bigint,
    orca_cndp_id    bigint,
    orca_dta_emis   date NOT NULL DEFAULT current_date,
    orca_dta_saida  date,
    orca_validade   date,
    orca_obs        text,
    orca_vlr_os     numeric(15,2) NOT NULL DEFAULT 0,
    orca_vlr_pecas  numeric(15,2) NOT NULL DEFAULT 0,
    orca_vlr_acre   numeric(15,2) NOT NULL DEFAULT 0,
    orca_vlr_desc   numeric(15,2) NOT NULL DEFAULT 0,
    orca_vlr_tot    numeric(15,2) NOT NULL DEFAULT 0,
    orca_situacao   text NOT NULL DEFAULT 'A',
    orca_ords_id    bigint,
    orca_pedf_id    bigint,
    orca_pedf_serie text,
    orca_requ_ok    boolean NOT NULL DEFAULT false,
    orca_usr_id     bigint,
    orca_dta_cad    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (client_id, orca_emp_id, orca_id)
);
CREATE TABLE orcamentoservico (
    client_id       bigint NOT NULL,
    orci_emp_id     bigint NOT NULL,
    orci_orca_id    bigint NOT NULL,
    orci_id         bigint NOT NULL,
    orci_serv_id    bigint NOT NULL,
    orci_descricao  text,
    orci_qtde       numeric(15,4) NOT NULL,
    orci_vlr_unit   numeric(15,4) NOT NULL DEFAULT 0,
    orci_vlr_desc   numeric(15,2) NOT NULL DEFAULT 0,
    orci_vlr_total  numeric(15,2) NOT NULL DEFAULT 0,
    orci_cola_id    bigint,
    PRIMARY KEY (client_id, orci_emp_id, orci_orca_id, orci_id),
    FOREIGN KEY (client_id, orci_emp_id, orci_orca_id) REFERENCES orcamento ON DELETE CASCADE
);
CREATE TABLE orcamentoproduto (
    client_id       bigint NOT NULL,
    orcp_emp_id     bigint NOT NULL,
    orcp_orca_id    bigint NOT NULL,
    orcp_id         bigint NOT NULL,
    orcp_prod_id    bigint NOT NULL,
    orcp_descricao  text,
    orcp_unidade    text,
    orcp_qtde       numeric(15,4) NOT NULL,
    orcp_vlr_unit   numeric(15,4) NOT NULL DEFAULT 0,
    orcp_vlr_desc   numeric(15,2) NOT NULL DEFAULT 0,
    orcp_vlr_total  numeric(15,2) NOT NULL DEFAULT 0,
    PRIMARY KEY (client_id, orcp_emp_id, orcp_orca_id, orcp_id),
    FOREIGN KEY (client_id, orcp_emp_id, orcp_orca_id) REFERENCES orcamento ON DELETE CASCADE
);

-- Billing orders: numbered per company and serie.
CREATE TABLE pedido (
    client_id           bigint NOT NULL,
    pedf_emp_id         bigint NOT NULL,
    pedf_serie          text NOT NULL,
    pedf_id             bigint NOT NULL,
    pedf_cli_id         bigint NOT NULL,
    pedf_cli_desc       text,
    pedf_cli_cidade     text,
    pedf_usr_id         bigint,
    pedf_cola_id        bigint,
    pedf_cndp_id        bigint,
    pedf_frmp_id        bigint,
    pedf_modelo         text NOT NULL DEFAULT '55',
    pedf_tipo           text NOT NULL DEFAULT '1',
    pedf_dta_emissao    date NOT NULL DEFAULT current_date,
    pedf_dta_entrada    date,
    pedf_dta_cad        timestamptz NOT NULL DEFAULT now(),
    pedf_hora_mov       text,
    pedf_obs            text,
    pedf_tot_prod       numeric(15,2) NOT NULL DEFAULT 0,
    pedf_tot_serv       numeric(15,2) NOT NULL DEFAULT 0,
    pedf_vlr_acre       numeric(15,2) NOT NULL DEFAULT 0,
    pedf_vlr_frete      numeric(15,2) NOT NULL DEFAULT 0,
    pedf_vlr_desc       numeric(15,2) NOT NULL DEFAULT 0,
    pedf_vlr_total      numeric(15,2) NOT NULL DEFAULT 0,
    pedf_situacao       text NOT NULL DEFAULT 'A' CHECK (pedf_situacao IN ('A', 'F')),
    pedf_dta_faturamento timestamptz,
    pedf_orca_id        bigint,
    pedf_nfe_xml        text,
    PRIMARY KEY (client_id, pedf_emp_id, pedf_id, pedf_serie)
);
CREATE INDEX pedido_cliente ON pedido (client_id, pedf_emp_id, pedf_cli_id);
CREATE TABLE pedidoproduto (
    client_id           bigint NOT NULL,
    pedi_pedf_emp_id    bigint NOT NULL,
    pedi_pedf_id        bigint NOT NULL,
    pedi_pedf_serie_id  text NOT NULL,
    pedi_pedf_item      bigint NOT NULL,
    pedi_prod_id        bigint NOT NULL,
    pedi_descricao      text,
    pedi_unidade        text,
    pedi_qtde           numeric(15,4) NOT NULL,
    pedi_vlr_unitario   numeric(15,4) NOT NULL DEFAULT 0,
    pedi_vlr_total      numeric(15,2) NOT NULL DEFAULT 0,
    pedi_vlr_acrecimo   numeric(15,2) NOT NULL DEFAULT 0,
    pedi_vlr_desconto   numeric(15,2) NOT NULL DEFAULT 0,
    pedi_vlr_frete      numeric(15,2) NOT NULL DEFAULT 0,
    pedi_perc_ipi       numeric(7,4) NOT NULL DEFAULT 0,
    pedi_perc_ticm      numeric(7,4) NOT NULL DEFAULT 0,
    pedi_perc_icms      numeric(7,4) NOT NULL DEFAULT 0,
    pedi_vlr_icms       numeric(15,2) NOT NULL DEFAULT 0,
    pedi_loca_id        bigint,
    PRIMARY KEY (client_id, pedi_pedf_emp_id, pedi_pedf_id, pedi_pedf_serie_id, pedi_pedf_item),
    FOREIGN KEY (client_id, pedi_pedf_emp_id, pedi_pedf_id, pedi_pedf_serie_id) REFERENCES pedido ON DELETE CASCADE
);
CREATE TABLE pedidoservico (
    client_id        bigint NOT NULL,
    pfos_pedf_emp_id bigint NOT NULL,
    pfos_pedf_id     bigint NOT NULL,
    pfos_pedf_serie  text NOT NULL,
    pfos_id          bigint NOT NULL,
    pfos_serv_id     bigint NOT NULL,
    pfos_descricao   text,
    pfos_qtde        numeric(15,4) NOT NULL,
    pfos_vlr_unit    numeric(15,4) NOT NULL DEFAULT 0,
    pfos_vlr_serv    numeric(15,2) NOT NULL DEFAULT 0,
    PRIMARY KEY (client_id, pfos_pedf_emp_id, pfos_pedf_id, pfos_pedf_serie, pfos_id),
    FOREIGN KEY (client_id, pfos_pedf_emp_id, pfos_pedf_id, pfos_pedf_serie) REFERENCES pedido ON DELETE CASCADE
);

-- Promotions: a unit price (or a percentage off) from a minimum quantity, in a period.
CREATE TABLE promocao (
    client_id      bigint NOT NULL,
    prom_emp_id    bigint NOT NULL,
    prom_id        bigint NOT NULL,
    prom_descricao text NOT NULL,
    prom_prod_id   bigint NOT NULL,
    prom_qtde_min  numeric(15,4) NOT NULL DEFAULT 1,
    prom_vlr_unit  numeric(15,4),
    prom_perc_desc numeric(7,4),
    prom_dta_ini   date NOT NULL,
    prom_dta_fim   date NOT NULL,
    prom_situacao  integer NOT NULL DEFAULT 1,
    PRIMARY KEY (client_id, prom_emp_id, prom_id)
);

-- Conditional sales (goods that go out on approval).
CREATE TABLE condicional (
    client_id        bigint NOT NULL,
    cond_emp_id      bigint NOT NULL,
    cond_id          bigint NOT NULL,
    cond_cli_id      bigint NOT NULL,
    cond_cli_desc    text,
    cond_cola_id     bigint,
    cond_dta_saida   date NOT NULL DEFAULT current_date,
    cond_dta_retorno date,
    cond_obs         text,
    cond_vlr_prod    numeric(15,2) NOT NULL DEFAULT 0,
    cond_vlr_serv    numeric(15,2) NOT NULL DEFAULT 0,
    cond_vlr_desc    numeric(15,2) NOT NULL DEFAULT 0,
    cond_vlr_total   numeric(15,2) NOT NULL DEFAULT 0,
    cond_situacao    text NOT NULL DEFAULT 'A',
    cond_usr_id      bigint,
    PRIMARY KEY (client_id, cond_emp_id, cond_id)
);
CREATE TABLE condicionalprod (
    client_id          bigint NOT NULL,
    cndp_emp_id        bigint NOT NULL,
    cndp_cond_id       bigint NOT NULL,
    cndp_id            bigint NOT NULL,
    cndp_prod_id       bigint NOT NULL,
    cndp_descricao     text,
    cndp_qtde          numeric(15,4) NOT NULL,
    cndp_qtde_devolvida numeric(15,4) NOT NULL DEFAULT 0,
    cndp_vlr_unit      numeric(15,4) NOT NULL DEFAULT 0,
    cndp_vlr_desc      numeric(15,2) NOT NULL DEFAULT 0,
    cndp_vlr_total     numeric(15,2) NOT NULL DEFAULT 0,
    PRIMARY KEY (client_id, cndp_emp_id, cndp_cond_id, cndp_id),
    FOREIGN KEY (client_id, cndp_emp_id, cndp_cond_id) REFERENCES condicional ON DELETE CASCADE
);
CREATE TABLE condicionalserv (
    client_id      bigint NOT NULL,
    cndi_emp_id    bigint NOT NULL,
    cndi_cond_id   bigint NOT NULL,
    cndi_id        bigint NOT NULL,
    cndi_serv_id   bigint NOT NULL,
    cndi_descricao text,
    cndi_qtde      numeric(15,4) NOT NULL,
    cndi_vlr_unit  numeric(15,4) NOT NULL DEFAULT 0,
    cndi_vlr_total numeric(15,2) NOT NULL DEFAULT 0,
    PRIMARY KEY (client_id, cndi_emp_id, cndi_cond_id, cndi_id),
    FOREIGN KEY (client_id, cndi_emp_id, cndi_cond_id) REFERENCES condicional ON DELETE CASCADE
);

DO $$
DECLARE t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['clientes', 'produtos', 'servicos', 'orcamento', 'orcamentoservico',
        'orcamentoproduto', 'pedido', 'pedidoproduto', 'pedidoservico', 'promocao', 'condicional',
        'condicionalprod', 'condicionalserv'] LOOP
        EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
        EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
        EXECUTE format('CREATE POLICY tenant ON %I USING (client_id = erp_current_client()) WITH CHECK (client_id = erp_current_client())', t);
    END LOOP;
END $$;
