-- Coarser rollups of the sales lines, so that a year of a busy company reads a
-- few thousand rows instead of millions: per day and item (`vendasitemdia`, no
-- customer), per month and item (`vendasmes`), and the order headers per day and
-- payment method (`vendasformadia`). Written in the same transaction as the
-- lines (facts/sales.rs); the reports read whole months from `vendasmes`, the
-- days of a month the period only partly covers from `vendasitemdia`, and
-- `vendasdia` (per customer) only when a customer or representative is asked for.
-- Filled here from the lines already recorded.
-- Runs with search_path = reports.

CREATE TABLE vendasitemdia (
    client_id  bigint NOT NULL,
    emp_id     bigint NOT NULL,
    dta        date NOT NULL,
    tipo       char(1) NOT NULL,
    item_id    bigint NOT NULL,
    qtde       numeric(18,4) NOT NULL,
    valor      numeric(18,2) NOT NULL,
    linhas     integer NOT NULL,
    PRIMARY KEY (client_id, emp_id, dta, tipo, item_id)
);

-- `mes`: the first day of the month.
CREATE TABLE vendasmes (
    client_id  bigint NOT NULL,
    emp_id     bigint NOT NULL,
    mes        date NOT NULL CHECK (extract(day FROM mes) = 1),
    tipo       char(1) NOT NULL,
    item_id    bigint NOT NULL,
    qtde       numeric(18,4) NOT NULL,
    valor      numeric(18,2) NOT NULL,
    linhas     integer NOT NULL,
    PRIMARY KEY (client_id, emp_id, mes, tipo, item_id)
);

-- `frmp_id` 0: no payment method.
CREATE TABLE vendasformadia (
    client_id  bigint NOT NULL,
    emp_id     bigint NOT NULL,
    dta        date NOT NULL,
    frmp_id    bigint NOT NULL,
    total      numeric(18,2) NOT NULL,
    pedidos    integer NOT NULL,
    PRIMARY KEY (client_id, emp_id, dta, frmp_id)
);

INSERT INTO vendasitemdia (client_id, emp_id, dta, tipo, item_id, qtde, valor, linhas)
SELECT client_id, emp_id, dta, tipo, item_id, sum(qtde), sum(vlr_total), count(*)
FROM vendasitens GROUP BY client_id, emp_id, dta, tipo, item_id;

INSERT INTO vendasmes (client_id, emp_id, mes, tipo, item_id, qtde, valor, linhas)
SELECT client_id, emp_id, date_trunc('month', dta)::date, tipo, item_id, sum(qtde), sum(valor), sum(linhas)
FROM vendasitemdia GROUP BY client_id, emp_id, date_trunc('month', dta)::date, tipo, item_id;

INSERT INTO vendasformadia (client_id, emp_id, dta, frmp_id, total, pedidos)
SELECT client_id, emp_id, dta, coalesce(frmp_id, 0), sum(total), count(*)
FROM vendas GROUP BY client_id, emp_id, dta, coalesce(frmp_id, 0);

DO $$
DECLARE t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['vendasitemdia', 'vendasmes', 'vendasformadia'] LOOP
        EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
        EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
        EXECUTE format('CREATE POLICY tenant ON %I USING (client_id = erp_current_client()) WITH CHECK (client_id = erp_current_client())', t);
    END LOOP;
END $$;
