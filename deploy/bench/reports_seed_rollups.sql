-- `make bench` (reports): the item and payment-method rollups of the bench's
-- sales (reports_seed.sql), as facts/sales.rs writes them. psql variables:
-- client, emp. Rebuilt from the lines on every run (a few seconds).
\set ON_ERROR_STOP on
BEGIN;
DELETE FROM reports.vendasitemdia WHERE client_id = :client AND emp_id = :emp;
DELETE FROM reports.vendasmes WHERE client_id = :client AND emp_id = :emp;
DELETE FROM reports.vendasdecendio WHERE client_id = :client AND emp_id = :emp;
DELETE FROM reports.vendasformadia WHERE client_id = :client AND emp_id = :emp;
INSERT INTO reports.vendasitemdia (client_id, emp_id, dta, tipo, item_id, qtde, valor, linhas)
SELECT client_id, emp_id, dta, tipo, item_id, sum(qtde), sum(vlr_total), count(*)
FROM reports.vendasitens WHERE client_id = :client AND emp_id = :emp GROUP BY client_id, emp_id, dta, tipo, item_id;
INSERT INTO reports.vendasmes (client_id, emp_id, mes, tipo, item_id, qtde, valor, linhas)
SELECT client_id, emp_id, date_trunc('month', dta)::date, tipo, item_id, sum(qtde), sum(valor), sum(linhas)
FROM reports.vendasitemdia WHERE client_id = :client AND emp_id = :emp
GROUP BY client_id, emp_id, date_trunc('month', dta)::date, tipo, item_id;
INSERT INTO reports.vendasdecendio (client_id, emp_id, inicio, tipo, item_id, qtde, valor, linhas)
SELECT client_id, emp_id, reports.decendio(dta), tipo, item_id, sum(qtde), sum(valor), sum(linhas)
FROM reports.vendasitemdia WHERE client_id = :client AND emp_id = :emp
GROUP BY client_id, emp_id, reports.decendio(dta), tipo, item_id;
INSERT INTO reports.vendasformadia (client_id, emp_id, dta, frmp_id, total, pedidos)
SELECT client_id, emp_id, dta, coalesce(frmp_id, 0), sum(total), count(*)
FROM reports.vendas WHERE client_id = :client AND emp_id = :emp GROUP BY client_id, emp_id, dta, coalesce(frmp_id, 0);
COMMIT;
-- Vacuumed as autovacuum leaves a table of past days: the index-only reads of the
-- day rollup need its visibility map.
VACUUM (ANALYZE) reports.vendasitemdia, reports.vendasdecendio, reports.vendasmes, reports.vendasformadia;
