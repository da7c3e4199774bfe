-- Credit, receipts and supplier advances: finance's copies of catalog's customers
-- and suppliers and of identity's companies, each customer's open receivables kept
-- beside the copy, the free-form receipts issued, advances to suppliers and the
-- settlements that offset them.
-- Runs with search_path = finance. Tenant tables: client_id first in the key, RLS
-- forced on client_id = erp_current_client().

-- Customers are registered per company (CLI_EMP_ID), so credit is per company:
-- the limit of customer cli_id of company emp_id against the open receivables of
-- that company. descricao..limite are the copy of catalog's row (copiado once a
-- fact arrived); aberto is what the customer owes in open and partly paid
-- receivables, moved by the trigger below in the transaction of every receivable
-- write, so a row may exist before catalog's fact (a title came first).
CREATE TABLE clientes (
    client_id  bigint NOT NULL,
    emp_id     bigint NOT NULL,
    cli_id     bigint NOT NULL,
    descricao  text,
    documento  text,
    cidade     text,
    uf         text,
    situacao   integer,
    -- NULL or 0: no limit.
    limite     numeric(15,2),
    excluido   boolean NOT NULL DEFAULT false,
    copiado    boolean NOT NULL DEFAULT false,
    aberto     numeric(15,2) NOT NULL DEFAULT 0,
    saldo      numeric(15,2) GENERATED ALWAYS AS (coalesce(limite, 0) - aberto) STORED,
    PRIMARY KEY (client_id, emp_id, cli_id)
);
CREATE INDEX clientes_descricao_trgm ON clientes USING gin (descricao gin_trgm_ops);

-- Catalog's suppliers are shared by the client's companies.
CREATE TABLE fornecedores (
    client_id  bigint NOT NULL,
    forn_id    bigint NOT NULL,
    descricao  text NOT NULL,
    documento  text,
    excluido   boolean NOT NULL DEFAULT false,
    PRIMARY KEY (client_id, forn_id)
);

-- Identity's companies: who issues a receipt, and where.
CREATE TABLE empresas (
    client_id  bigint NOT NULL,
    emp_id     bigint NOT NULL,
    descricao  text NOT NULL,
    fantasia   text,
    documento  text,
    endereco   text,
    numero     text,
    bairro     text,
    cidade     text,
    uf         text,
    cep        text,
    -- Stored name of the reports' logo (gateway uploads of the company).
    logo       text,
    PRIMARY KEY (client_id, emp_id)
);

-- What a receivable adds to its customer's open balance: its balance while it is
-- not cancelled (a paid title's balance is zero).
CREATE FUNCTION contasreceber_aberto() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    before numeric := 0;
    after  numeric := 0;
BEGIN
    IF TG_OP <> 'INSERT' AND NOT OLD.tit_cancelado THEN
        before := OLD.tit_saldo;
    END IF;
    IF TG_OP <> 'DELETE' AND NOT NEW.tit_cancelado THEN
        after := NEW.tit_saldo;
    END IF;
    IF TG_OP = 'UPDATE' AND OLD.tit_emp_id = NEW.tit_emp_id AND OLD.tit_pessoa_id = NEW.tit_pessoa_id THEN
        after := after - before;
        before := 0;
    END IF;
    IF before <> 0 THEN
        INSERT INTO finance.clientes AS c (client_id, emp_id, cli_id, aberto)
        VALUES (OLD.client_id, OLD.tit_emp_id, OLD.tit_pessoa_id, -before)
        ON CONFLICT (client_id, emp_id, cli_id) DO UPDATE SET aberto = c.aberto + EXCLUDED.aberto;
    END IF;
    IF after <> 0 THEN
        INSERT INTO finance.clientes AS c (client_id, emp_id, cli_id, aberto)
        VALUES (NEW.client_id, NEW.tit_emp_id, NEW.tit_pessoa_id, after)
        ON CONFLICT (client_id, emp_id, cli_id) DO UPDATE SET aberto = c.aberto + EXCLUDED.aberto;
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER contasreceber_aberto AFTER INSERT OR UPDATE OR DELETE ON contasreceber
    FOR EACH ROW EXECUTE FUNCTION contasreceber_aberto();

-- Titles written before this migration: their customers' balances, once. The
-- owner reads past row-level security only while it is not forced.
ALTER TABLE contasreceber NO FORCE ROW LEVEL SECURITY;
INSERT INTO clientes (client_id, emp_id, cli_id, aberto)
SELECT client_id, tit_emp_id, tit_pessoa_id, sum(tit_saldo)
FROM contasreceber WHERE NOT tit_cancelado
GROUP BY client_id, tit_emp_id, tit_pessoa_id
HAVING sum(tit_saldo) <> 0;
ALTER TABLE contasreceber FORCE ROW LEVEL SECURITY;

-- Advances to suppliers (adiantamentos): a payable marked tit_adiantamento, typed
-- on the payables screen and paid like any other (its settlement takes the money
-- out of the account). What it paid is a credit with the supplier; tit_compensado
-- is the part of it already offset against the supplier's other payables (by
-- settlements that name it in baix_adto_id and move no money).
ALTER TABLE contaspagar ADD COLUMN tit_adiantamento boolean NOT NULL DEFAULT false;
ALTER TABLE contaspagar ADD COLUMN tit_compensado numeric(15,2) NOT NULL DEFAULT 0;
ALTER TABLE contaspagar ADD CONSTRAINT contaspagar_compensado_check
    CHECK (tit_compensado >= 0 AND tit_compensado <= tit_pago AND (tit_adiantamento OR tit_compensado = 0));
CREATE INDEX contaspagar_adiantamentos ON contaspagar (client_id, tit_emp_id, tit_pessoa_id)
    WHERE tit_adiantamento;

ALTER TABLE baixas ADD COLUMN baix_adto_id bigint;
ALTER TABLE baixas ADD CONSTRAINT baixas_adiantamento_check CHECK (baix_adto_id IS NULL OR baix_tipo = 'P');
CREATE INDEX baixas_adiantamento ON baixas (client_id, baix_emp_id, baix_adto_id) WHERE baix_adto_id IS NOT NULL;

-- Free-form receipts (recibo avulso), numbered per company, kept so they can be
-- printed again.
CREATE TABLE recibos (
    client_id         bigint NOT NULL,
    rec_emp_id        bigint NOT NULL,
    rec_id            bigint NOT NULL,
    rec_valor         numeric(15,2) NOT NULL CHECK (rec_valor > 0),
    rec_pagador       text NOT NULL,
    rec_pagador_doc   text,
    -- NULL: the company received.
    rec_recebedor     text,
    rec_recebedor_doc text,
    rec_referente     text NOT NULL,
    rec_cidade        text NOT NULL,
    rec_data          date NOT NULL,
    rec_usr_id        bigint,
    rec_dta_cad       timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (client_id, rec_emp_id, rec_id)
);
CREATE INDEX recibos_pagador_trgm ON recibos USING gin (rec_pagador gin_trgm_ops);

DO $$
DECLARE t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['clientes', 'fornecedores', 'empresas', 'recibos'] LOOP
        EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
        EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
        EXECUTE format('CREATE POLICY tenant ON %I USING (client_id = erp_current_client()) WITH CHECK (client_id = erp_current_client())', t);
    END LOOP;
END $$;
