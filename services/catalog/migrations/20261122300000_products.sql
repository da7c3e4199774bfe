-- Catalog: products, the tables that classify them and their sub-registers.
-- Runs with search_path = catalog. Tenant tables: client_id first in the key, then
-- the company column when the register is per company; row-level security forced on
-- client_id = erp_current_client(). Groups, colours and brands carry no company
-- (spec §3) and are shared by the client's companies. References to registers of
-- other modules (NCM, suppliers, customers) are plain columns.

CREATE TABLE grupo (
    client_id      bigint NOT NULL,
    grup_id        bigint NOT NULL,
    grup_descricao text NOT NULL,
    grup_margem    numeric(7,4) CHECK (grup_margem >= 0),
    grup_situacao  integer NOT NULL DEFAULT 1 CHECK (grup_situacao IN (0, 1)),
    PRIMARY KEY (client_id, grup_id)
);
CREATE INDEX grupo_descricao_trgm ON grupo USING gin (grup_descricao gin_trgm_ops);

CREATE TABLE subgrupo (
    client_id      bigint NOT NULL,
    gsub_emp_id    bigint NOT NULL,
    gsub_id        bigint NOT NULL,
    gsub_descricao text NOT NULL,
    gsub_grup_id   bigint NOT NULL,
    gsub_situacao  integer NOT NULL DEFAULT 1 CHECK (gsub_situacao IN (0, 1)),
    PRIMARY KEY (client_id, gsub_emp_id, gsub_id),
    -- Target of the products' (subgroup, group) key: a product's subgroup must
    -- belong to its group.
    UNIQUE (client_id, gsub_emp_id, gsub_id, gsub_grup_id),
    FOREIGN KEY (client_id, gsub_grup_id) REFERENCES grupo (client_id, grup_id)
);
CREATE INDEX subgrupo_grupo ON subgrupo (client_id, gsub_grup_id);
CREATE INDEX subgrupo_descricao_trgm ON subgrupo USING gin (gsub_descricao gin_trgm_ops);

CREATE TABLE unidade (
    client_id       bigint NOT NULL,
    unid_emp_id     bigint NOT NULL,
    unid_id         bigint NOT NULL,
    unid_descricao  text NOT NULL,
    unid_abreviada  text NOT NULL,
    unid_fracionada boolean NOT NULL DEFAULT false,
    unid_situacao   integer NOT NULL DEFAULT 1 CHECK (unid_situacao IN (0, 1)),
    PRIMARY KEY (client_id, unid_emp_id, unid_id),
    CONSTRAINT unidade_abreviada_key UNIQUE (client_id, unid_emp_id, unid_abreviada)
);
CREATE INDEX unidade_descricao_trgm ON unidade USING gin (unid_descricao gin_trgm_ops);
CREATE INDEX unidade_abreviada_trgm ON unidade USING gin (unid_abreviada gin_trgm_ops);

CREATE TABLE tamanho (
    client_id     bigint NOT NULL,
    tam_emp_id    bigint NOT NULL,
    tam_id        bigint NOT NULL,
    tam_descricao text NOT NULL,
    tam_situacao  integer NOT NULL DEFAULT 1 CHECK (tam_situacao IN (0, 1)),
    PRIMARY KEY (client_id, tam_emp_id, tam_id)
);
CREATE INDEX tamanho_descricao_trgm ON tamanho USING gin (tam_descricao gin_trgm_ops);

CREATE TABLE cor (
    client_id     bigint NOT NULL,
    cor_id        bigint NOT NULL,
    cor_descricao text NOT NULL,
    cor_hex       text CHECK (cor_hex ~ '^#[0-9A-F]{6}$'),
    cor_situacao  integer NOT NULL DEFAULT 1 CHECK (cor_situacao IN (0, 1)),
    PRIMARY KEY (client_id, cor_id)
);
CREATE INDEX cor_descricao_trgm ON cor USING gin (cor_descricao gin_trgm_ops);

CREATE TABLE marca (
    client_id      bigint NOT NULL,
    marc_id        bigint NOT NULL,
    marc_descricao text NOT NULL,
    marc_situacao  integer NOT NULL DEFAULT 1 CHECK (marc_situacao IN (0, 1)),
    PRIMARY KEY (client_id, marc_id)
);
CREATE INDEX marca_descricao_trgm ON marca USING gin (marc_descricao gin_trgm_ops);

CREATE TABLE produtos (
    client_id           bigint NOT NULL,
    prod_emp_id         bigint NOT NULL,
    prod_id             bigint NOT NULL,
    prod_descricao      text NOT NULL,
    prod_descricao_red  text,
    prod_referencia     text,
    prod_cbar           text CHECK (prod_cbar ~ '^[0-9]{8,14}$'),
    prod_tipo           text NOT NULL DEFAULT '00',
    prod_unid_id        bigint NOT NULL,
    -- Kept by a trigger from the unit: lists and documents show it without a join.
    prod_unid_abreviada text,
    prod_grup_id        bigint,
    prod_gsub_id        bigint,
    prod_marc_id        bigint,
    prod_ncm            text CHECK (prod_ncm ~ '^[0-9]{8}$'),
    prod_cest           text CHECK (prod_cest ~ '^[0-9]{7}$'),
    prod_origem         integer NOT NULL DEFAULT 0 CHECK (prod_origem BETWEEN 0 AND 8),
    prod_custo          numeric(15,2) CHECK (prod_custo >= 0),
    prod_margem         numeric(7,4) CHECK (prod_margem >= 0),
    prod_valor          numeric(15,2) CHECK (prod_valor >= 0),
    -- The balance is the stock service's; it stays 0 until stock reports one.
    prod_estoque        numeric(15,4) NOT NULL DEFAULT 0,
    prod_estoque_min    numeric(15,4) CHECK (prod_estoque_min >= 0),
    prod_estoque_max    numeric(15,4) CHECK (prod_estoque_max >= 0),
    prod_peso_bruto     numeric(15,4) CHECK (prod_peso_bruto >= 0),
    prod_peso_liquido   numeric(15,4) CHECK (prod_peso_liquido >= 0),
    prod_situacao       integer NOT NULL DEFAULT 1 CHECK (prod_situacao IN (0, 1)),
    prod_imagem         text,
    prod_obs            text,
    prod_dta_cad        timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (client_id, prod_emp_id, prod_id),
    FOREIGN KEY (client_id, prod_emp_id, prod_unid_id) REFERENCES unidade (client_id, unid_emp_id, unid_id),
    FOREIGN KEY (client_id, prod_grup_id) REFERENCES grupo (client_id, grup_id),
    FOREIGN KEY (client_id, prod_emp_id, prod_gsub_id) REFERENCES subgrupo (client_id, gsub_emp_id, gsub_id),
    -- Checked when both are given; follows a subgroup moved to another group.
    FOREIGN KEY (client_id, prod_emp_id, prod_gsub_id, prod_grup_id)
        REFERENCES subgrupo (client_id, gsub_emp_id, gsub_id, gsub_grup_id) ON UPDATE CASCADE,
    FOREIGN KEY (client_id, prod_marc_id) REFERENCES marca (client_id, marc_id)
);
-- A barcode finds one product of the company.
CREATE UNIQUE INDEX produtos_cbar_key ON produtos (client_id, prod_emp_id, prod_cbar) WHERE prod_cbar IS NOT NULL;
CREATE INDEX produtos_descricao_trgm ON produtos USING gin (prod_descricao gin_trgm_ops);
CREATE INDEX produtos_referencia_trgm ON produtos USING gin (prod_referencia gin_trgm_ops);
CREATE INDEX produtos_cbar_trgm ON produtos USING gin (prod_cbar gin_trgm_ops);
CREATE INDEX produtos_grupo ON produtos (client_id, prod_emp_id, prod_grup_id);
CREATE INDEX produtos_subgrupo ON produtos (client_id, prod_emp_id, prod_gsub_id);
CREATE INDEX produtos_marca ON produtos (client_id, prod_emp_id, prod_marc_id);
CREATE INDEX produtos_unidade ON produtos (client_id, prod_emp_id, prod_unid_id);
CREATE INDEX produtos_ncm ON produtos (client_id, prod_emp_id, prod_ncm);

CREATE TABLE produtosinf (
    client_id       bigint NOT NULL,
    proi_emp_id     bigint NOT NULL,
    proi_id         bigint NOT NULL,
    proi_prod_id    bigint NOT NULL,
    proi_descricao  text NOT NULL,
    proi_informacao text,
    PRIMARY KEY (client_id, proi_emp_id, proi_id),
    FOREIGN KEY (client_id, proi_emp_id, proi_prod_id)
        REFERENCES produtos (client_id, prod_emp_id, prod_id) ON DELETE CASCADE
);
CREATE INDEX produtosinf_prod ON produtosinf (client_id, proi_emp_id, proi_prod_id);
CREATE INDEX produtosinf_descricao_trgm ON produtosinf USING gin (proi_descricao gin_trgm_ops);

CREATE TABLE produtoscbar (
    client_id      bigint NOT NULL,
    prcb_emp_id    bigint NOT NULL,
    prcb_id        bigint NOT NULL,
    prcb_prod_id   bigint NOT NULL,
    prcb_codigo    text NOT NULL CHECK (prcb_codigo ~ '^[0-9]{8,14}$'),
    prcb_descricao text,
    prcb_qtde      numeric(15,4) NOT NULL DEFAULT 1 CHECK (prcb_qtde > 0),
    PRIMARY KEY (client_id, prcb_emp_id, prcb_id),
    CONSTRAINT produtoscbar_codigo_key UNIQUE (client_id, prcb_emp_id, prcb_codigo),
    FOREIGN KEY (client_id, prcb_emp_id, prcb_prod_id)
        REFERENCES produtos (client_id, prod_emp_id, prod_id) ON DELETE CASCADE
);
CREATE INDEX produtoscbar_prod ON produtoscbar (client_id, prcb_emp_id, prcb_prod_id);
CREATE INDEX produtoscbar_codigo_trgm ON produtoscbar USING gin (prcb_codigo gin_trgm_ops);

CREATE TABLE materiaprima (
    client_id      bigint NOT NULL,
    matp_emp_id    bigint NOT NULL,
    matp_id        bigint NOT NULL,
    matp_prod_id   bigint NOT NULL,
    matp_comp_id   bigint NOT NULL,
    -- Kept by a trigger from the component product.
    matp_descricao text,
    matp_qtde      numeric(15,4) NOT NULL CHECK (matp_qtde > 0),
    matp_perda     numeric(7,4) CHECK (matp_perda BETWEEN 0 AND 100),
    matp_obs       text,
    PRIMARY KEY (client_id, matp_emp_id, matp_id),
    FOREIGN KEY (client_id, matp_emp_id, matp_prod_id)
        REFERENCES produtos (client_id, prod_emp_id, prod_id) ON DELETE CASCADE,
    -- A product used as a component cannot be deleted.
    FOREIGN KEY (client_id, matp_emp_id, matp_comp_id)
        REFERENCES produtos (client_id, prod_emp_id, prod_id)
);
CREATE INDEX materiaprima_prod ON materiaprima (client_id, matp_emp_id, matp_prod_id);
CREATE INDEX materiaprima_comp ON materiaprima (client_id, matp_emp_id, matp_comp_id);
CREATE INDEX materiaprima_descricao_trgm ON materiaprima USING gin (matp_descricao gin_trgm_ops);

CREATE TABLE produtosfornecedor (
    client_id           bigint NOT NULL,
    prfr_emp_id         bigint NOT NULL,
    prfr_id             bigint NOT NULL,
    prfr_prod_id        bigint NOT NULL,
    prfr_forn_id        bigint NOT NULL,
    prfr_ref_id         text NOT NULL,
    prfr_unid_compra    text,
    prfr_fator          numeric(15,4) NOT NULL DEFAULT 1 CHECK (prfr_fator > 0),
    prfr_custo          numeric(15,2) CHECK (prfr_custo >= 0),
    prfr_dta_ult_compra date,
    PRIMARY KEY (client_id, prfr_emp_id, prfr_id),
    CONSTRAINT produtosfornecedor_ref_key UNIQUE (client_id, prfr_emp_id, prfr_prod_id, prfr_forn_id, prfr_ref_id),
    FOREIGN KEY (client_id, prfr_emp_id, prfr_prod_id)
        REFERENCES produtos (client_id, prod_emp_id, prod_id) ON DELETE CASCADE
);
CREATE INDEX produtosfornecedor_prod ON produtosfornecedor (client_id, prfr_emp_id, prfr_prod_id);
-- Purchase invoices are matched by supplier and the supplier's code.
CREATE INDEX produtosfornecedor_forn_ref ON produtosfornecedor (client_id, prfr_emp_id, prfr_forn_id, prfr_ref_id);
CREATE INDEX produtosfornecedor_ref_trgm ON produtosfornecedor USING gin (prfr_ref_id gin_trgm_ops);

CREATE TABLE produtosgrade (
    client_id       bigint NOT NULL,
    prgr_emp_id     bigint NOT NULL,
    prgr_id         bigint NOT NULL,
    prgr_prod_id    bigint NOT NULL,
    prgr_tam_id     bigint,
    prgr_cor_id     bigint,
    prgr_descricao  text,
    prgr_referencia text,
    prgr_cbar       text CHECK (prgr_cbar ~ '^[0-9]{8,14}$'),
    prgr_valor      numeric(15,2) CHECK (prgr_valor >= 0),
    prgr_situacao   integer NOT NULL DEFAULT 1 CHECK (prgr_situacao IN (0, 1)),
    PRIMARY KEY (client_id, prgr_emp_id, prgr_id),
    -- One variant per size and colour of a product.
    CONSTRAINT produtosgrade_variante_key UNIQUE NULLS NOT DISTINCT (client_id, prgr_emp_id, prgr_prod_id, prgr_tam_id, prgr_cor_id),
    FOREIGN KEY (client_id, prgr_emp_id, prgr_prod_id)
        REFERENCES produtos (client_id, prod_emp_id, prod_id) ON DELETE CASCADE,
    FOREIGN KEY (client_id, prgr_emp_id, prgr_tam_id) REFERENCES tamanho (client_id, tam_emp_id, tam_id),
    FOREIGN KEY (client_id, prgr_cor_id) REFERENCES cor (client_id, cor_id)
);
CREATE UNIQUE INDEX produtosgrade_cbar_key ON produtosgrade (client_id, prgr_emp_id, prgr_cbar) WHERE prgr_cbar IS NOT NULL;
CREATE INDEX produtosgrade_prod ON produtosgrade (client_id, prgr_emp_id, prgr_prod_id);
CREATE INDEX produtosgrade_descricao_trgm ON produtosgrade USING gin (prgr_descricao gin_trgm_ops);
CREATE INDEX produtosgrade_referencia_trgm ON produtosgrade USING gin (prgr_referencia gin_trgm_ops);
CREATE INDEX produtosgrade_cbar_trgm ON produtosgrade USING gin (prgr_cbar gin_trgm_ops);

CREATE TABLE produtopintura (
    client_id      bigint NOT NULL,
    prpt_emp_id    bigint NOT NULL,
    prpt_id        bigint NOT NULL,
    prpt_prod_id   bigint NOT NULL,
    prpt_descricao text NOT NULL,
    prpt_cor_id    bigint,
    prpt_codigo    text,
    prpt_formula   text,
    prpt_valor     numeric(15,2) CHECK (prpt_valor >= 0),
    prpt_situacao  integer NOT NULL DEFAULT 1 CHECK (prpt_situacao IN (0, 1)),
    PRIMARY KEY (client_id, prpt_emp_id, prpt_id),
    FOREIGN KEY (client_id, prpt_emp_id, prpt_prod_id)
        REFERENCES produtos (client_id, prod_emp_id, prod_id) ON DELETE CASCADE,
    FOREIGN KEY (client_id, prpt_cor_id) REFERENCES cor (client_id, cor_id)
);
CREATE INDEX produtopintura_prod ON produtopintura (client_id, prpt_emp_id, prpt_prod_id);
CREATE INDEX produtopintura_descricao_trgm ON produtopintura USING gin (prpt_descricao gin_trgm_ops);
CREATE INDEX produtopintura_codigo_trgm ON produtopintura USING gin (prpt_codigo gin_trgm_ops);

CREATE TABLE produtosespeciais (
    client_id         bigint NOT NULL,
    pres_emp_id       bigint NOT NULL,
    pres_cli_id       bigint NOT NULL,
    pres_prod_id      bigint NOT NULL,
    -- Kept by a trigger from the product.
    pres_descricao    text,
    pres_valor        numeric(15,2) NOT NULL CHECK (pres_valor >= 0),
    pres_dta_validade date,
    pres_obs          text,
    PRIMARY KEY (client_id, pres_emp_id, pres_cli_id, pres_prod_id),
    FOREIGN KEY (client_id, pres_emp_id, pres_prod_id)
        REFERENCES produtos (client_id, prod_emp_id, prod_id) ON DELETE CASCADE
);
CREATE INDEX produtosespeciais_prod ON produtosespeciais (client_id, pres_emp_id, pres_prod_id);
CREATE INDEX produtosespeciais_descricao_trgm ON produtosespeciais USING gin (pres_descricao gin_trgm_ops);

-- Copied descriptions. BEFORE triggers, so the row a write returns already holds
-- them; `SET search_path FROM CURRENT` pins this schema for the application's
-- connections, whose search_path does not name it.
CREATE FUNCTION produtos_copia_unidade() RETURNS trigger LANGUAGE plpgsql
SET search_path FROM CURRENT AS $$
BEGIN
    NEW.prod_unid_abreviada := (SELECT unid_abreviada FROM unidade
        WHERE client_id = NEW.client_id AND unid_emp_id = NEW.prod_emp_id AND unid_id = NEW.prod_unid_id);
    RETURN NEW;
END $$;
CREATE TRIGGER produtos_copia_unidade BEFORE INSERT OR UPDATE OF prod_unid_id ON produtos
    FOR EACH ROW EXECUTE FUNCTION produtos_copia_unidade();

CREATE FUNCTION unidade_propaga_abreviada() RETURNS trigger LANGUAGE plpgsql
SET search_path FROM CURRENT AS $$
BEGIN
    UPDATE produtos SET prod_unid_abreviada = NEW.unid_abreviada
     WHERE client_id = NEW.client_id AND prod_emp_id = NEW.unid_emp_id AND prod_unid_id = NEW.unid_id;
    RETURN NULL;
END $$;
CREATE TRIGGER unidade_propaga_abreviada AFTER UPDATE OF unid_abreviada ON unidade
    FOR EACH ROW WHEN (OLD.unid_abreviada IS DISTINCT FROM NEW.unid_abreviada)
    EXECUTE FUNCTION unidade_propaga_abreviada();

CREATE FUNCTION materiaprima_copia_descricao() RETURNS trigger LANGUAGE plpgsql
SET search_path FROM CURRENT AS $$
BEGIN
    NEW.matp_descricao := (SELECT prod_descricao FROM produtos
        WHERE client_id = NEW.client_id AND prod_emp_id = NEW.matp_emp_id AND prod_id = NEW.matp_comp_id);
    RETURN NEW;
END $$;
CREATE TRIGGER materiaprima_copia_descricao BEFORE INSERT OR UPDATE ON materiaprima
    FOR EACH ROW EXECUTE FUNCTION materiaprima_copia_descricao();

CREATE FUNCTION produtosespeciais_copia_descricao() RETURNS trigger LANGUAGE plpgsql
SET search_path FROM CURRENT AS $$
BEGIN
    NEW.pres_descricao := (SELECT prod_descricao FROM produtos
        WHERE client_id = NEW.client_id AND prod_emp_id = NEW.pres_emp_id AND prod_id = NEW.pres_prod_id);
    RETURN NEW;
END $$;
CREATE TRIGGER produtosespeciais_copia_descricao BEFORE INSERT OR UPDATE ON produtosespeciais
    FOR EACH ROW EXECUTE FUNCTION produtosespeciais_copia_descricao();

CREATE FUNCTION produtos_propaga_descricao() RETURNS trigger LANGUAGE plpgsql
SET search_path FROM CURRENT AS $$
BEGIN
    UPDATE materiaprima SET matp_descricao = NEW.prod_descricao
     WHERE client_id = NEW.client_id AND matp_emp_id = NEW.prod_emp_id AND matp_comp_id = NEW.prod_id;
    UPDATE produtosespeciais SET pres_descricao = NEW.prod_descricao
     WHERE client_id = NEW.client_id AND pres_emp_id = NEW.prod_emp_id AND pres_prod_id = NEW.prod_id;
    RETURN NULL;
END $$;
CREATE TRIGGER produtos_propaga_descricao AFTER UPDATE OF prod_descricao ON produtos
    FOR EACH ROW WHEN (OLD.prod_descricao IS DISTINCT FROM NEW.prod_descricao)
    EXECUTE FUNCTION produtos_propaga_descricao();

-- A variant left without a description is named after its size and colour.
CREATE FUNCTION produtosgrade_descricao() RETURNS trigger LANGUAGE plpgsql
SET search_path FROM CURRENT AS $$
BEGIN
    IF coalesce(btrim(NEW.prgr_descricao), '') = '' THEN
        NEW.prgr_descricao := nullif(concat_ws(' / ',
            (SELECT tam_descricao FROM tamanho
              WHERE client_id = NEW.client_id AND tam_emp_id = NEW.prgr_emp_id AND tam_id = NEW.prgr_tam_id),
            (SELECT cor_descricao FROM cor WHERE client_id = NEW.client_id AND cor_id = NEW.prgr_cor_id)), '');
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER produtosgrade_descricao BEFORE INSERT OR UPDATE ON produtosgrade
    FOR EACH ROW EXECUTE FUNCTION produtosgrade_descricao();

DO $$
DECLARE t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['grupo', 'subgrupo', 'unidade', 'tamanho', 'cor', 'marca', 'produtos',
                             'produtosinf', 'produtoscbar', 'materiaprima', 'produtosfornecedor',
                             'produtosgrade', 'produtopintura', 'produtosespeciais'] LOOP
        EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
        EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
        EXECUTE format('CREATE POLICY tenant ON %I USING (client_id = erp_current_client()) WITH CHECK (client_id = erp_current_client())', t);
    END LOOP;
END $$;
