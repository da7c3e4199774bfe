-- The reports' read model: copies of catalog's products, services, groups,
-- subgroups, customers and sellers and of finance's payment methods (names and
-- classifications, updated by their facts; a removed row stays, flagged, so old
-- sales keep their names), the sales facts of invoiced orders (header and lines)
-- and a daily rollup of the lines per item and customer, written in the same
-- transaction as the facts.
-- Runs with search_path = reports. Tenant tables: client_id first in the key, RLS
-- forced on client_id = erp_current_client().

CREATE TABLE produtos (
    client_id  bigint NOT NULL,
    emp_id     bigint NOT NULL,
    prod_id    bigint NOT NULL,
    descricao  text,
    grup_id    bigint,
    gsub_id    bigint,
    custo      numeric(15,4),
    excluido   boolean NOT NULL DEFAULT false,
    PRIMARY KEY (client_id, emp_id, prod_id)
);

CREATE TABLE servicos (
    client_id  bigint NOT NULL,
    emp_id     bigint NOT NULL,
    serv_id    bigint NOT NULL,
    descricao  text,
    excluido   boolean NOT NULL DEFAULT false,
    PRIMARY KEY (client_id, emp_id, serv_id)
);

-- Groups are the client's (their register is per company path, not column).
CREATE TABLE grupos (
    client_id  bigint NOT NULL,
    emp_id     bigint NOT NULL,
    grup_id    bigint NOT NULL,
    descricao  text,
    excluido   boolean NOT NULL DEFAULT false,
    PRIMARY KEY (client_id, emp_id, grup_id)
);

CREATE TABLE subgrupos (
    client_id  bigint NOT NULL,
    emp_id     bigint NOT NULL,
    gsub_id    bigint NOT NULL,
    descricao  text,
    grup_id    bigint,
    excluido   boolean NOT NULL DEFAULT false,
    PRIMARY KEY (client_id, emp_id, gsub_id)
);

CREATE TABLE clientes (
    client_id  bigint NOT NULL,
    emp_id     bigint NOT NULL,
    cli_id     bigint NOT NULL,
    descricao  text,
    cidade     text,
    uf         text,
    -- The customer's seller (representative).
    cola_id    bigint,
    excluido   boolean NOT NULL DEFAULT false,
    PRIMARY KEY (client_id, emp_id, cli_id)
);

CREATE TABLE colaboradores (
    client_id      bigint NOT NULL,
    emp_id         bigint NOT NULL,
    cola_id        bigint NOT NULL,
    nome           text,
    perc_comissao  numeric(7,4),
    excluido       boolean NOT NULL DEFAULT false,
    PRIMARY KEY (client_id, emp_id, cola_id)
);

CREATE TABLE formaspagamento (
    client_id  bigint NOT NULL,
    emp_id     bigint NOT NULL,
    frmp_id    bigint NOT NULL,
    descricao  text,
    excluido   boolean NOT NULL DEFAULT false,
    PRIMARY KEY (client_id, emp_id, frmp_id)
);

-- Identity's companies: the name and logo of the printed reports' header.
CREATE TABLE empresas (
    client_id   bigint NOT NULL,
    emp_id      bigint NOT NULL,
    empresa_id  bigint NOT NULL,
    descricao   text,
    logo        text,
    excluido    boolean NOT NULL DEFAULT false,
    PRIMARY KEY (client_id, emp_id, empresa_id)
);

-- Identity's users: who printed a report.
CREATE TABLE usuarios (
    client_id  bigint NOT NULL,
    emp_id     bigint NOT NULL,
    usr_id     bigint NOT NULL,
    nome       text,
    usuario    text,
    excluido   boolean NOT NULL DEFAULT false,
    PRIMARY KEY (client_id, emp_id, usr_id)
);

-- One row per invoiced order.
CREATE TABLE vendas (
    client_id  bigint NOT NULL,
    emp_id     bigint NOT NULL,
    pedf_id    bigint NOT NULL,
    serie      text NOT NULL,
    dta        date NOT NULL,
    cli_id     bigint NOT NULL,
    cli_nome   text,
    total      numeric(15,2) NOT NULL,
    tot_prod   numeric(15,2) NOT NULL,
    tot_serv   numeric(15,2) NOT NULL,
    frmp_id    bigint,
    cndp_id    bigint,
    usr_id     bigint,
    PRIMARY KEY (client_id, emp_id, pedf_id, serie)
);
CREATE INDEX vendas_data ON vendas (client_id, emp_id, dta);

-- One row per sale line: P product, S service.
CREATE TABLE vendasitens (
    client_id     bigint NOT NULL,
    emp_id        bigint NOT NULL,
    pedf_id       bigint NOT NULL,
    serie         text NOT NULL,
    tipo          char(1) NOT NULL CHECK (tipo IN ('P', 'S')),
    item          bigint NOT NULL,
    item_id       bigint NOT NULL,
    dta           date NOT NULL,
    cli_id        bigint NOT NULL,
    qtde          numeric(15,4) NOT NULL,
    vlr_unit      numeric(15,4) NOT NULL,
    vlr_desconto  numeric(15,2) NOT NULL,
    vlr_total     numeric(15,2) NOT NULL,
    PRIMARY KEY (client_id, emp_id, pedf_id, serie, tipo, item)
);

-- The lines summed per day, kind, item and customer: what the reports read.
CREATE TABLE vendasdia (
    client_id  bigint NOT NULL,
    emp_id     bigint NOT NULL,
    dta        date NOT NULL,
    tipo       char(1) NOT NULL,
    item_id    bigint NOT NULL,
    cli_id     bigint NOT NULL,
    qtde       numeric(18,4) NOT NULL,
    valor      numeric(18,2) NOT NULL,
    linhas     integer NOT NULL,
    PRIMARY KEY (client_id, emp_id, dta, tipo, item_id, cli_id)
);

DO $$
DECLARE t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['produtos', 'servicos', 'grupos', 'subgrupos', 'clientes', 'colaboradores',
                             'formaspagamento', 'empresas', 'usuarios', 'vendas', 'vendasitens', 'vendasdia'] LOOP
        EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
        EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
        EXECUTE format('CREATE POLICY tenant ON %I USING (client_id = erp_current_client()) WITH CHECK (client_id = erp_current_client())', t);
    END LOOP;
END $$;
