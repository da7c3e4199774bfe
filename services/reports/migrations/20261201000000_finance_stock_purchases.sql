-- The read model's finance, stock and purchase facts, and the copies they name:
-- catalog's suppliers, finance's bank accounts, cost centres and their groups, and
-- more of the customers and products the register reports list.
-- Runs with search_path = reports. Tenant tables: client_id first in the key, RLS
-- forced on client_id = erp_current_client().

ALTER TABLE clientes ADD COLUMN cpf text, ADD COLUMN cgc text, ADD COLUMN fone text, ADD COLUMN situacao text;
ALTER TABLE produtos ADD COLUMN referencia text, ADD COLUMN unidade text, ADD COLUMN preco numeric(15,4),
    ADD COLUMN estoque_min numeric(15,4);

-- Suppliers are the client's (kept under company 0).
CREATE TABLE fornecedores (
    client_id  bigint NOT NULL,
    emp_id     bigint NOT NULL,
    forn_id    bigint NOT NULL,
    descricao  text,
    fantasia   text,
    documento  text,
    cidade     text,
    uf         text,
    fone       text,
    excluido   boolean NOT NULL DEFAULT false,
    PRIMARY KEY (client_id, emp_id, forn_id)
);

CREATE TABLE bancos (
    client_id      bigint NOT NULL,
    emp_id         bigint NOT NULL,
    bco_id         bigint NOT NULL,
    descricao      text,
    saldo_inicial  numeric(15,2),
    excluido       boolean NOT NULL DEFAULT false,
    PRIMARY KEY (client_id, emp_id, bco_id)
);

CREATE TABLE centroscusto (
    client_id  bigint NOT NULL,
    emp_id     bigint NOT NULL,
    hisp_id    bigint NOT NULL,
    descricao  text,
    tipo       text,
    grhp_id    bigint,
    excluido   boolean NOT NULL DEFAULT false,
    PRIMARY KEY (client_id, emp_id, hisp_id)
);

CREATE TABLE gruposcentrocusto (
    client_id  bigint NOT NULL,
    emp_id     bigint NOT NULL,
    grhp_id    bigint NOT NULL,
    descricao  text,
    excluido   boolean NOT NULL DEFAULT false,
    PRIMARY KEY (client_id, emp_id, grhp_id)
);

-- Receivables (R) and payables (P) as their latest fact left them.
CREATE TABLE titulos (
    client_id     bigint NOT NULL,
    emp_id        bigint NOT NULL,
    tipo          char(1) NOT NULL CHECK (tipo IN ('R', 'P')),
    tit_id        bigint NOT NULL,
    pessoa_id     bigint NOT NULL,
    pessoa_nome   text,
    documento     text,
    origem        text NOT NULL,
    origem_id     bigint,
    origem_serie  text,
    parcela       integer NOT NULL,
    parcelas      integer NOT NULL,
    dta_emis      date NOT NULL,
    dta_vcto      date NOT NULL,
    valor         numeric(15,2) NOT NULL,
    pago          numeric(15,2) NOT NULL,
    saldo         numeric(15,2) NOT NULL,
    situacao      text NOT NULL,
    frmp_id       bigint,
    bco_id        bigint,
    hisp_id       bigint,
    adiantamento  boolean NOT NULL DEFAULT false,
    PRIMARY KEY (client_id, emp_id, tipo, tit_id)
);
CREATE INDEX titulos_vencimento ON titulos (client_id, emp_id, tipo, dta_vcto);

-- Settlements (baixas) of titles; a reversed one stays, flagged.
CREATE TABLE baixas (
    client_id  bigint NOT NULL,
    emp_id     bigint NOT NULL,
    baix_id    bigint NOT NULL,
    tipo       char(1) NOT NULL CHECK (tipo IN ('R', 'P')),
    tit_id     bigint NOT NULL,
    dta        date NOT NULL,
    valor      numeric(15,2) NOT NULL,
    juros      numeric(15,2) NOT NULL,
    multa      numeric(15,2) NOT NULL,
    desconto   numeric(15,2) NOT NULL,
    -- The money it moved (0 for an offset against an advance).
    total      numeric(15,2) NOT NULL,
    bco_id     bigint,
    frmp_id    bigint,
    adto_id    bigint,
    estornada  boolean NOT NULL DEFAULT false,
    PRIMARY KEY (client_id, emp_id, baix_id)
);
CREATE INDEX baixas_data ON baixas (client_id, emp_id, tipo, dta);

-- Bank movements.
CREATE TABLE movbancario (
    client_id  bigint NOT NULL,
    emp_id     bigint NOT NULL,
    mbca_id    bigint NOT NULL,
    bco_id     bigint NOT NULL,
    dta        date NOT NULL,
    tipo       char(1) NOT NULL CHECK (tipo IN ('C', 'D')),
    valor      numeric(15,2) NOT NULL,
    historico  text,
    documento  text,
    hisp_id    bigint,
    frmp_id    bigint,
    origem     text,
    baix_id    bigint,
    PRIMARY KEY (client_id, emp_id, mbca_id)
);
CREATE INDEX movbancario_data ON movbancario (client_id, emp_id, bco_id, dta);

-- Finalized purchases; a cancelled one stays, flagged.
CREATE TABLE compras (
    client_id   bigint NOT NULL,
    emp_id      bigint NOT NULL,
    comp_id     bigint NOT NULL,
    forn_id     bigint NOT NULL,
    forn_nome   text,
    numero      text,
    serie       text,
    modelo      text,
    dta_emis    date NOT NULL,
    dta_entrada date NOT NULL,
    total       numeric(15,2) NOT NULL,
    itens       integer NOT NULL,
    hisp_id     bigint,
    usr_id      bigint,
    cancelada   boolean NOT NULL DEFAULT false,
    PRIMARY KEY (client_id, emp_id, comp_id)
);
CREATE INDEX compras_data ON compras (client_id, emp_id, dta_entrada);

-- The stock ledger's movements, once each (the ledger's id), and their daily
-- rollup per product written in the same transaction.
CREATE TABLE estoquemov (
    client_id    bigint NOT NULL,
    emp_id       bigint NOT NULL,
    movi_id      bigint NOT NULL,
    prod_id      bigint NOT NULL,
    dta          date NOT NULL,
    tipo         char(1) NOT NULL CHECK (tipo IN ('E', 'S')),
    qtde         numeric(15,4) NOT NULL,
    custo_unit   numeric(15,4) NOT NULL,
    saldo_apos   numeric(15,4) NOT NULL,
    custo_medio  numeric(15,4) NOT NULL,
    origem       text,
    origem_id    text,
    loca_id      bigint,
    PRIMARY KEY (client_id, emp_id, movi_id)
);
CREATE INDEX estoquemov_data ON estoquemov (client_id, emp_id, dta);

CREATE TABLE estoquedia (
    client_id  bigint NOT NULL,
    emp_id     bigint NOT NULL,
    prod_id    bigint NOT NULL,
    dta        date NOT NULL,
    entradas   numeric(18,4) NOT NULL,
    saidas     numeric(18,4) NOT NULL,
    PRIMARY KEY (client_id, emp_id, prod_id, dta)
);

-- Each product's balance after its latest movement (the highest ledger id).
CREATE TABLE estoquesaldo (
    client_id    bigint NOT NULL,
    emp_id       bigint NOT NULL,
    prod_id      bigint NOT NULL,
    movi_id      bigint NOT NULL,
    qtde         numeric(15,4) NOT NULL,
    custo_medio  numeric(15,4) NOT NULL,
    PRIMARY KEY (client_id, emp_id, prod_id)
);

DO $$
DECLARE t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['fornecedores', 'bancos', 'centroscusto', 'gruposcentrocusto', 'titulos', 'baixas',
                             'movbancario', 'compras', 'estoquemov', 'estoquedia', 'estoquesaldo'] LOOP
        EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
        EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
        EXECUTE format('CREATE POLICY tenant ON %I USING (client_id = erp_current_client()) WITH CHECK (client_id = erp_current_client())', t);
    END LOOP;
END $$;
