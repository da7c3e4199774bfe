-- `make bench` (reports): bulk invoiced sales for one company, straight into the
-- reports' read model (for the bench only: the product writes them from the
-- orders' facts, facts/sales.rs). psql variables: client, emp, orders (each
-- order has 5 product lines). 2,000 products in 20 groups and 100 subgroups,
-- 20,000 customers, the orders spread evenly over 2025, the products drawn
-- with a skew (a few sell much, most little: a real ABC curve). Idempotent:
-- the bench's ids start at 90,000,000 (orders) and 900,000 (products,
-- customers, groups), and a second run adds nothing.
\set ON_ERROR_STOP on
SELECT setseed(0.42);
BEGIN;
INSERT INTO reports.grupos (client_id, emp_id, grup_id, descricao)
SELECT :client, 0, 900000 + g, 'GRUPO ' || g FROM generate_series(1, 20) g
ON CONFLICT DO NOTHING;
INSERT INTO reports.subgrupos (client_id, emp_id, gsub_id, descricao, grup_id)
SELECT :client, :emp, 900000 + s, 'SUBGRUPO ' || s, 900000 + (s - 1) / 5 + 1 FROM generate_series(1, 100) s
ON CONFLICT DO NOTHING;
INSERT INTO reports.produtos (client_id, emp_id, prod_id, descricao, grup_id, gsub_id, custo)
SELECT :client, :emp, 900000 + i, 'PRODUTO ' || i, 900000 + (i - 1) % 100 / 5 + 1, 900000 + (i - 1) % 100 + 1, 10
FROM generate_series(1, 2000) i
ON CONFLICT DO NOTHING;
INSERT INTO reports.clientes (client_id, emp_id, cli_id, descricao)
SELECT :client, :emp, 900000 + i, 'CLIENTE ' || i FROM generate_series(1, 20000) i
ON CONFLICT DO NOTHING;

CREATE TEMP TABLE bench_lines ON COMMIT DROP AS
SELECT 90000000 + o AS pedf_id, l AS item,
       900001 + floor(2000 * power(random(), 3))::bigint AS item_id,
       date '2025-01-01' + ((o - 1) * 365 / :orders)::int AS dta,
       900001 + (o * 7919) % 20000 AS cli_id,
       (1 + floor(random() * 9))::numeric AS qtde
FROM generate_series(1::bigint, :orders) o, generate_series(1, 5) l
WHERE NOT EXISTS (SELECT 1 FROM reports.vendas WHERE client_id = :client AND emp_id = :emp AND pedf_id > 90000000);

INSERT INTO reports.vendasitens (client_id, emp_id, pedf_id, serie, tipo, item, item_id, dta, cli_id, qtde, vlr_unit,
                                 vlr_desconto, vlr_total)
SELECT :client, :emp, pedf_id, 'B', 'P', item, item_id, dta, cli_id, qtde, 5 + (item_id % 200) * 1.25, 0,
       qtde * (5 + (item_id % 200) * 1.25)
FROM bench_lines;

INSERT INTO reports.vendas (client_id, emp_id, pedf_id, serie, dta, cli_id, total, tot_prod, tot_serv, frmp_id)
SELECT :client, :emp, pedf_id, 'B', min(dta), min(cli_id), sum(qtde * (5 + (item_id % 200) * 1.25)),
       sum(qtde * (5 + (item_id % 200) * 1.25)), 0, 1 + pedf_id % 4
FROM bench_lines GROUP BY pedf_id;

-- The rollups, as the facts write them.
INSERT INTO reports.vendasdia AS d (client_id, emp_id, dta, tipo, item_id, cli_id, qtde, valor, linhas)
SELECT :client, :emp, dta, 'P', item_id, cli_id, sum(qtde), sum(qtde * (5 + (item_id % 200) * 1.25)), count(*)
FROM bench_lines GROUP BY dta, item_id, cli_id
ON CONFLICT (client_id, emp_id, dta, tipo, item_id, cli_id) DO UPDATE
SET qtde = d.qtde + EXCLUDED.qtde, valor = d.valor + EXCLUDED.valor, linhas = d.linhas + EXCLUDED.linhas;
COMMIT;
ANALYZE reports.vendas, reports.vendasitens, reports.vendasdia, reports.produtos, reports.clientes;
