-- Purchases (compras): the supplier's invoice as a document of the engine, its items,
-- their size/colour grid, freight documents (CT-e), the apportionment to stock
-- locations and cost centres, the instalments and the returns; what orders needs to
-- match an imported NF-e (the supplier-code links, the GTIN of its product copy, its
-- copies of suppliers and companies). Runs with search_path = orders.
-- Money numeric(15,2), quantities numeric(15,4), unit prices numeric(21,10) (the
-- NF-e's vUnCom has up to 10 decimals), percentages numeric(7,4).

-- What orders knows of catalog's suppliers and identity's companies (from their
-- RecordChanged events): a purchase keeps its supplier's name and document, an
-- imported NF-e is matched to its supplier and checked against the company.
CREATE TABLE fornecedores (
    client_id   bigint NOT NULL,
    forn_id     bigint NOT NULL,
    descricao   text NOT NULL,
    -- CNPJ or CPF, digits only.
    documento   text,
    excluido    boolean NOT NULL DEFAULT false,
    PRIMARY KEY (client_id, forn_id)
);
CREATE INDEX fornecedores_documento ON fornecedores (client_id, documento);
CREATE TABLE empresas (
    client_id   bigint NOT NULL,
    emp_id      bigint NOT NULL,
    documento   text,
    PRIMARY KEY (client_id, emp_id)
);
ALTER TABLE produtos ADD COLUMN gtin text;
CREATE INDEX produtos_gtin ON produtos (client_id, emp_id, gtin) WHERE gtin IS NOT NULL;
ALTER TABLE clientes ADD COLUMN documento text;

-- The purchase (header). Numbered per company; the access key is unique per company.
CREATE TABLE compras (
    client_id           bigint NOT NULL,
    comp_emp_id         bigint NOT NULL,
    comp_id             bigint NOT NULL,
    comp_modelo         text NOT NULL DEFAULT '55',
    comp_serie          text,
    comp_numero         bigint,
    comp_chave          text,
    comp_forn_id        bigint,
    comp_forn_desc      text,
    comp_forn_cnpj      text,
    comp_forn_ie        text,
    comp_forn_cidade    text,
    comp_forn_uf        text,
    comp_forn_ibge      text,
    comp_dta_emissao    date NOT NULL DEFAULT current_date,
    comp_dta_entrada    date NOT NULL DEFAULT current_date,
    comp_natureza       text,
    comp_cfop           text,
    comp_cndp_id        bigint,
    comp_loca_id        bigint,
    comp_hisp_id        bigint,
    comp_transp_id      bigint,
    comp_transp_desc    text,
    comp_transp_cnpj    text,
    comp_mod_frete      text NOT NULL DEFAULT '9',
    comp_obs            text,
    -- Totals of the lines (the engine's): products, discounts, freight, the other
    -- additions (insurance + other + IPI + ST) and the invoice total; then each
    -- addition and the ICMS base and value on their own (the lines' hook).
    comp_vlr_produtos   numeric(15,2) NOT NULL DEFAULT 0,
    comp_vlr_desconto   numeric(15,2) NOT NULL DEFAULT 0,
    comp_vlr_frete      numeric(15,2) NOT NULL DEFAULT 0,
    comp_vlr_acrescimos numeric(15,2) NOT NULL DEFAULT 0,
    comp_vlr_total      numeric(15,2) NOT NULL DEFAULT 0,
    comp_vlr_seguro     numeric(15,2) NOT NULL DEFAULT 0,
    comp_vlr_outras     numeric(15,2) NOT NULL DEFAULT 0,
    comp_vlr_ipi        numeric(15,2) NOT NULL DEFAULT 0,
    comp_vlr_st         numeric(15,2) NOT NULL DEFAULT 0,
    comp_vlr_bc_icms    numeric(15,2) NOT NULL DEFAULT 0,
    comp_vlr_icms       numeric(15,2) NOT NULL DEFAULT 0,
    -- Totals typed from the paper invoice (totalizadoresmanual): when on, finalizing
    -- apportions what they exceed the lines by, and the invoice total is the typed one.
    comp_totalizador_manual boolean NOT NULL DEFAULT false,
    comp_man_desconto   numeric(15,2),
    comp_man_frete      numeric(15,2),
    comp_man_seguro     numeric(15,2),
    comp_man_outras     numeric(15,2),
    comp_man_ipi        numeric(15,2),
    comp_man_st         numeric(15,2),
    comp_man_total      numeric(15,2),
    comp_vlr_diferenca  numeric(15,2) NOT NULL DEFAULT 0,
    comp_situacao       text NOT NULL DEFAULT 'A' CHECK (comp_situacao IN ('A', 'F', 'C')),
    comp_xml_arquivo    text,
    comp_usr_id         bigint,
    comp_dta_cad        timestamptz NOT NULL DEFAULT now(),
    comp_usr_finalizacao bigint,
    comp_dta_finalizacao timestamptz,
    comp_usr_cancelamento bigint,
    comp_dta_cancelamento timestamptz,
    PRIMARY KEY (client_id, comp_emp_id, comp_id),
    CONSTRAINT compras_chave_key UNIQUE (client_id, comp_emp_id, comp_chave)
);
CREATE INDEX compras_fornecedor ON compras (client_id, comp_emp_id, comp_forn_id);

-- Items: the product (null until linked), what the supplier calls it, the purchase
-- unit and its conversion factor to the stock unit, the values the NF-e gives per
-- item, the line total (the engine's) and the landed cost (finalizing).
CREATE TABLE compra_produtos (
    client_id           bigint NOT NULL,
    cmpp_emp_id         bigint NOT NULL,
    cmpp_comp_id        bigint NOT NULL,
    cmpp_id             bigint NOT NULL,
    cmpp_n_item         bigint,
    cmpp_prod_id        bigint,
    cmpp_cod_fornecedor text,
    cmpp_descricao      text NOT NULL,
    cmpp_ncm            text,
    cmpp_cest           text,
    cmpp_cfop           text,
    cmpp_cst            text,
    cmpp_gtin           text,
    cmpp_unidade        text,
    cmpp_fator          numeric(15,4) NOT NULL DEFAULT 1 CHECK (cmpp_fator > 0),
    cmpp_qtde           numeric(15,4) NOT NULL,
    cmpp_vlr_unit       numeric(21,10) NOT NULL DEFAULT 0,
    cmpp_vlr_desc       numeric(15,2) DEFAULT 0,
    cmpp_vlr_frete      numeric(15,2) DEFAULT 0,
    cmpp_vlr_seguro     numeric(15,2) DEFAULT 0,
    cmpp_vlr_outras     numeric(15,2) DEFAULT 0,
    cmpp_perc_ipi       numeric(7,4) DEFAULT 0,
    cmpp_vlr_ipi        numeric(15,2) DEFAULT 0,
    cmpp_perc_icms      numeric(7,4) DEFAULT 0,
    cmpp_vlr_bc_icms    numeric(15,2) DEFAULT 0,
    cmpp_vlr_icms       numeric(15,2) DEFAULT 0,
    cmpp_vlr_st         numeric(15,2) DEFAULT 0,
    -- What the line adds besides freight: the engine's surcharge of the line.
    cmpp_vlr_acrescimos numeric(15,2) GENERATED ALWAYS AS (
        coalesce(cmpp_vlr_seguro, 0) + coalesce(cmpp_vlr_outras, 0)
        + coalesce(cmpp_vlr_ipi, 0) + coalesce(cmpp_vlr_st, 0)) STORED,
    cmpp_vlr_total      numeric(15,2) NOT NULL DEFAULT 0,
    cmpp_custo_total    numeric(15,2),
    cmpp_custo_unit     numeric(15,4),
    cmpp_vinculo        text,
    cmpp_loca_id        bigint,
    PRIMARY KEY (client_id, cmpp_emp_id, cmpp_comp_id, cmpp_id),
    FOREIGN KEY (client_id, cmpp_emp_id, cmpp_comp_id) REFERENCES compras ON DELETE CASCADE
);
CREATE INDEX compra_produtos_produto ON compra_produtos (client_id, cmpp_emp_id, cmpp_prod_id);

-- An item's quantities by size and colour.
CREATE TABLE compra_produtos_grade (
    client_id      bigint NOT NULL,
    cmpg_emp_id    bigint NOT NULL,
    cmpg_comp_id   bigint NOT NULL,
    cmpg_id        bigint NOT NULL,
    cmpg_cmpp_id   bigint NOT NULL,
    cmpg_tam_id    bigint,
    cmpg_cor_id    bigint,
    cmpg_qtde      numeric(15,4) NOT NULL CHECK (cmpg_qtde > 0),
    cmpg_obs       text,
    PRIMARY KEY (client_id, cmpg_emp_id, cmpg_comp_id, cmpg_id),
    CONSTRAINT compra_produtos_grade_item_fkey FOREIGN KEY (client_id, cmpg_emp_id, cmpg_comp_id, cmpg_cmpp_id)
        REFERENCES compra_produtos ON DELETE CASCADE
);

-- Freight documents (CT-e) of the purchase: apportioned into the items' cost.
CREATE TABLE compra_fretes (
    client_id        bigint NOT NULL,
    cmpf_emp_id      bigint NOT NULL,
    cmpf_comp_id     bigint NOT NULL,
    cmpf_id          bigint NOT NULL,
    cmpf_transp_id   bigint,
    cmpf_transp_desc text,
    cmpf_chave_cte   text,
    cmpf_numero      bigint,
    cmpf_dta_emissao date,
    cmpf_valor       numeric(15,2) NOT NULL CHECK (cmpf_valor >= 0),
    cmpf_ratear      boolean NOT NULL DEFAULT true,
    PRIMARY KEY (client_id, cmpf_emp_id, cmpf_comp_id, cmpf_id),
    FOREIGN KEY (client_id, cmpf_emp_id, cmpf_comp_id) REFERENCES compras ON DELETE CASCADE
);

-- The purchase apportioned to stock locations and cost centres (adds up to 100%).
CREATE TABLE compra_estatisticas (
    client_id    bigint NOT NULL,
    cmpe_emp_id  bigint NOT NULL,
    cmpe_comp_id bigint NOT NULL,
    cmpe_id      bigint NOT NULL,
    cmpe_loca_id bigint,
    cmpe_hisp_id bigint,
    cmpe_perc    numeric(7,4),
    cmpe_valor   numeric(15,2),
    cmpe_obs     text,
    PRIMARY KEY (client_id, cmpe_emp_id, cmpe_comp_id, cmpe_id),
    FOREIGN KEY (client_id, cmpe_emp_id, cmpe_comp_id) REFERENCES compras ON DELETE CASCADE
);

-- Instalments (what finance turns into payables). Settled ones block cancelling.
CREATE TABLE compra_pagamentos (
    client_id       bigint NOT NULL,
    cmpd_emp_id     bigint NOT NULL,
    cmpd_comp_id    bigint NOT NULL,
    cmpd_id         bigint NOT NULL,
    cmpd_numero     text,
    cmpd_dta_vcto   date NOT NULL,
    cmpd_vlr_titulo numeric(15,2) NOT NULL CHECK (cmpd_vlr_titulo > 0),
    cmpd_vlr_juros  numeric(15,2) NOT NULL DEFAULT 0,
    cmpd_bco_id     bigint,
    cmpd_frmp_id    bigint,
    cmpd_baixado    boolean NOT NULL DEFAULT false,
    cmpd_dta_baixa  date,
    cmpd_obs        text,
    PRIMARY KEY (client_id, cmpd_emp_id, cmpd_comp_id, cmpd_id),
    FOREIGN KEY (client_id, cmpd_emp_id, cmpd_comp_id) REFERENCES compras ON DELETE CASCADE
);
CREATE INDEX compra_pagamentos_vencimento ON compra_pagamentos (client_id, cmpd_emp_id, cmpd_dta_vcto);

-- Items returned to the supplier; `gerarpedido` makes the return billing order.
CREATE TABLE compra_devolucoes (
    client_id       bigint NOT NULL,
    cmpr_emp_id     bigint NOT NULL,
    cmpr_comp_id    bigint NOT NULL,
    cmpr_id         bigint NOT NULL,
    cmpr_cmpp_id    bigint NOT NULL,
    cmpr_qtde       numeric(15,4) NOT NULL CHECK (cmpr_qtde > 0),
    cmpr_motivo     text,
    cmpr_dta        date NOT NULL DEFAULT current_date,
    cmpr_pedf_id    bigint,
    cmpr_pedf_serie text,
    cmpr_usr_id     bigint,
    PRIMARY KEY (client_id, cmpr_emp_id, cmpr_comp_id, cmpr_id),
    CONSTRAINT compra_devolucoes_item_fkey FOREIGN KEY (client_id, cmpr_emp_id, cmpr_comp_id, cmpr_cmpp_id)
        REFERENCES compra_produtos ON DELETE CASCADE
);

-- Which product a supplier's code is (per company and supplier document), written
-- when a user links an imported item, so the next NF-e of that supplier matches.
CREATE TABLE compra_vinculos (
    client_id       bigint NOT NULL,
    emp_id          bigint NOT NULL,
    forn_documento  text NOT NULL,
    cod_fornecedor  text NOT NULL,
    prod_id         bigint NOT NULL,
    unidade         text,
    fator           numeric(15,4) NOT NULL DEFAULT 1,
    dta_alteracao   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (client_id, emp_id, forn_documento, cod_fornecedor)
);

DO $$
DECLARE t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['fornecedores', 'empresas', 'compras', 'compra_produtos',
        'compra_produtos_grade', 'compra_fretes', 'compra_estatisticas', 'compra_pagamentos',
        'compra_devolucoes', 'compra_vinculos'] LOOP
        EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
        EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
        EXECUTE format('CREATE POLICY tenant ON %I USING (client_id = erp_current_client()) WITH CHECK (client_id = erp_current_client())', t);
    END LOOP;
END $$;
