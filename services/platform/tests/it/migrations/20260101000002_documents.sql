-- A test-only document declared only by its descriptors (tests/it/document.rs):
-- a header with totals, a status, a created-by stamp and an image column, and two
-- kinds of lines.
CREATE TABLE docs (
    client_id    bigint NOT NULL,
    doc_emp_id   bigint NOT NULL,
    doc_id       bigint NOT NULL,
    doc_cliente  text NOT NULL,
    doc_data     date,
    doc_obs      text,
    doc_acrescimo numeric(15,2) NOT NULL DEFAULT 0,
    doc_vlr_prod numeric(15,2) NOT NULL DEFAULT 0,
    doc_vlr_serv numeric(15,2) NOT NULL DEFAULT 0,
    doc_vlr_acre numeric(15,2) NOT NULL DEFAULT 0,
    doc_vlr_frete numeric(15,2) NOT NULL DEFAULT 0,
    doc_vlr_desc numeric(15,2) NOT NULL DEFAULT 0,
    doc_vlr_total numeric(15,2) NOT NULL DEFAULT 0,
    doc_situacao text NOT NULL DEFAULT 'A',
    doc_usr_id   bigint,
    doc_imagem   text,
    PRIMARY KEY (client_id, doc_emp_id, doc_id)
);
ALTER TABLE docs ENABLE ROW LEVEL SECURITY;
ALTER TABLE docs FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant ON docs USING (client_id = erp_current_client()) WITH CHECK (client_id = erp_current_client());

CREATE TABLE doc_produtos (
    client_id   bigint NOT NULL,
    dp_emp_id   bigint NOT NULL,
    dp_doc_id   bigint NOT NULL,
    dp_item     bigint NOT NULL,
    dp_prod_id  bigint NOT NULL,
    dp_descricao text,
    dp_qtde     numeric(15,4) NOT NULL,
    dp_vlr_unit numeric(15,4) NOT NULL DEFAULT 0,
    dp_vlr_desc numeric(15,2) NOT NULL DEFAULT 0,
    dp_vlr_frete numeric(15,2) NOT NULL DEFAULT 0,
    dp_vlr_total numeric(15,2) NOT NULL DEFAULT 0,
    PRIMARY KEY (client_id, dp_emp_id, dp_doc_id, dp_item),
    FOREIGN KEY (client_id, dp_emp_id, dp_doc_id) REFERENCES docs ON DELETE CASCADE
);
ALTER TABLE doc_produtos ENABLE ROW LEVEL SECURITY;
ALTER TABLE doc_produtos FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant ON doc_produtos USING (client_id = erp_current_client()) WITH CHECK (client_id = erp_current_client());

CREATE TABLE doc_servicos (
    client_id   bigint NOT NULL,
    ds_emp_id   bigint NOT NULL,
    ds_doc_id   bigint NOT NULL,
    ds_item     bigint NOT NULL,
    ds_serv_id  bigint NOT NULL,
    ds_descricao text,
    ds_qtde     numeric(15,4) NOT NULL,
    ds_vlr_unit numeric(15,4) NOT NULL DEFAULT 0,
    ds_vlr_acre numeric(15,2) NOT NULL DEFAULT 0,
    ds_vlr_total numeric(15,2) NOT NULL DEFAULT 0,
    PRIMARY KEY (client_id, ds_emp_id, ds_doc_id, ds_item),
    FOREIGN KEY (client_id, ds_emp_id, ds_doc_id) REFERENCES docs ON DELETE CASCADE
);
ALTER TABLE doc_servicos ENABLE ROW LEVEL SECURITY;
ALTER TABLE doc_servicos FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant ON doc_servicos USING (client_id = erp_current_client()) WITH CHECK (client_id = erp_current_client());
