-- Sales per ten days (decêndio: days 1–10, 11–20 and 21 to the month's end) and
-- item, so that the days of a month a period covers only in part read a few
-- rows per item instead of one per day: 15/01 to 31/01 reads the 15th to the
-- 20th by day and the 21st to the 31st as one decêndio (rollup.rs). Written
-- with the other rollups in the sales facts' transaction (facts/sales.rs).
-- `inicio`: the decêndio's first day (1, 11 or 21). Filled here from the day
-- rollup. Runs with search_path = reports.

-- The first day of the decêndio of a day.
CREATE FUNCTION decendio(d date) RETURNS date
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN date_trunc('month', d)::date + least((extract(day FROM d)::int - 1) / 10, 2) * 10;

CREATE TABLE vendasdecendio (
    client_id  bigint NOT NULL,
    emp_id     bigint NOT NULL,
    inicio     date NOT NULL CHECK (extract(day FROM inicio) IN (1, 11, 21)),
    tipo       char(1) NOT NULL,
    item_id    bigint NOT NULL,
    qtde       numeric(18,4) NOT NULL,
    valor      numeric(18,2) NOT NULL,
    linhas     integer NOT NULL,
    PRIMARY KEY (client_id, emp_id, inicio, tipo, item_id) INCLUDE (qtde, valor)
);

INSERT INTO vendasdecendio (client_id, emp_id, inicio, tipo, item_id, qtde, valor, linhas)
SELECT client_id, emp_id, decendio(dta), tipo, item_id, sum(qtde), sum(valor), sum(linhas)
FROM vendasitemdia GROUP BY client_id, emp_id, decendio(dta), tipo, item_id;

ALTER TABLE vendasdecendio ENABLE ROW LEVEL SECURITY;
ALTER TABLE vendasdecendio FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant ON vendasdecendio USING (client_id = erp_current_client()) WITH CHECK (client_id = erp_current_client());
