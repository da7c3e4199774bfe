#!/usr/bin/env bash
# `make bench`, second part: invoicing over the bus. The whole product runs (release
# build, pinned to core 0) with a NATS JetStream server of this script's own; the
# load generators run on core 1. Side by side, in one run:
#   - the floor: one PostgreSQL commit round trip and one JetStream
#     publish-with-acknowledgement round trip, measured directly (erp bench-floor);
#   - isolated invoices: 200, one at a time, 50 ms apart: invoice -> balance
#     p50/p99, in ms and as a ratio to the floor (commit + publish);
#   - sustained load: 16 connections for BENCH_SECS (30) seconds, once on 2 hot
#     products and once on 10,000 products: invoices/s, exits applied/s,
#     invoice -> balance p50/p99 (the queue included), and the time from the last
#     invoice to the last exit (the backlog draining after the load stops).
# "invoice -> balance" is stock's exit movement time (clock_timestamp() when the
# batch writes it) minus the order's invoice time (its transaction start): both
# PostgreSQL's clock. Every invoiced order must have exactly its two exits.
# The table is written to target/bench/invoices.md.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ERP=${ERP_BIN:-${CARGO_TARGET_DIR:-$HOME/.cache/erp-target}/release/erp}
# The floor is measured by this tree's binary (an older one under test may lack it).
FLOOR_ERP=${FLOOR_BIN:-$ERP}
SECS=${BENCH_SECS:-30}
PORT=${BENCH_PORT:-8093}
ORDERS=${BENCH_ORDERS:-40000}
SPREAD=10000
BASE_URL=${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/erp}
DB=erp_bench_invoice
ADMIN_URL="${BASE_URL%/*}/postgres"
URL="${BASE_URL%/*}/$DB"
OUT="$ROOT/target/bench"
WORK=$(mktemp -d)
CLIENT=2
EMP=1
mkdir -p "$OUT"
command -v wrk >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null; }
say() { printf 'bench: %s\n' "$*" >&2; }
sql() { psql -X -q -tA "$URL" -c "$1"; }

psql -X -q "$ADMIN_URL" -c "DROP DATABASE IF EXISTS $DB WITH (FORCE)" -c "CREATE DATABASE $DB" >/dev/null
NATS_PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
NATS_BIN=$(command -v nats-server || echo /usr/sbin/nats-server)
"$NATS_BIN" -a 127.0.0.1 -p "$NATS_PORT" -js -sd "$WORK/nats" >/dev/null 2>&1 &
NATS_PID=$!
env -u REDIS_URL DATABASE_URL="$URL" NATS_URL="nats://127.0.0.1:$NATS_PORT" ERP_HTTP_ADDR="127.0.0.1:$PORT" \
    ERP_DATA_DIR="$WORK" ERP_WEB_DIR="$ROOT/web/dist" RUST_LOG=warn taskset -c 0 "$ERP" run --demo >"$WORK/erp.log" 2>&1 &
PID=$!
cleanup() {
    kill "$PID" 2>/dev/null || true; wait "$PID" 2>/dev/null || true
    kill "$NATS_PID" 2>/dev/null || true; wait "$NATS_PID" 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT
for _ in $(seq 1 240); do
    grep -q "em http" "$WORK/erp.log" 2>/dev/null && break
    kill -0 "$PID" 2>/dev/null || { cat "$WORK/erp.log" >&2; say "server did not start"; exit 1; }
    sleep 0.5
done
TOKEN=$(curl -fsS -X POST "http://127.0.0.1:$PORT/usuarios/sessions" -H 'content-type: application/json' \
    -d '{"cpfcnpj":"11.222.333/0001-81","usuario":"admin","senha":"admin123"}' | python3 -c 'import json,sys;print(json.load(sys.stdin)["token"])')

# Benchmark data, customer 1 of the demo: serie 7 (isolated) and 8 (hot) order lines
# on products 2 and 3; serie 9 on two of 10,000 products each.
say "loading $((ORDERS * 2 + 200)) open orders"
sql "SET app.client_id = '$CLIENT';
INSERT INTO orders.pedido (client_id, pedf_emp_id, pedf_serie, pedf_id, pedf_cli_id, pedf_cli_desc, pedf_cli_cidade)
  SELECT $CLIENT, $EMP, s, g, 1, 'CLIENTE TESTE LTDA', 'São Paulo'
  FROM (VALUES ('7', 200), ('8', $ORDERS), ('9', $ORDERS)) v(s, n), generate_series(1, n) g;
-- Statistics first: the foreign-key checks of the lines plan against them.
ANALYZE orders.pedido;
INSERT INTO orders.pedidoproduto (client_id, pedi_pedf_emp_id, pedi_pedf_id, pedi_pedf_serie_id, pedi_pedf_item, pedi_prod_id,
    pedi_descricao, pedi_qtde, pedi_vlr_unitario, pedi_vlr_total)
  SELECT $CLIENT, $EMP, g, s, i, CASE WHEN s = '9' THEN (g * 2 + i) % $SPREAD + 1 ELSE i + 1 END, 'ITEM', i, 10, 10 * i
  FROM (VALUES ('7', 200), ('8', $ORDERS), ('9', $ORDERS)) v(s, n), generate_series(1, n) g, generate_series(1, 2) i;
ANALYZE orders.pedido; ANALYZE orders.pedidoproduto;
-- The demo gives customer 1 a credit limit of R\$ 5.000,00: the bench invoices far more
-- on credit, so the customer has none (in catalog and in the copies that check it).
UPDATE catalog.clientes SET cli_limite_credito = 0 WHERE client_id = $CLIENT AND cli_id = 1;
UPDATE finance.clientes SET limite = 0 WHERE client_id = $CLIENT AND cli_id = 1;
UPDATE orders.clientes SET limite = 0 WHERE client_id = $CLIENT AND cli_id = 1;" >/dev/null

# The floor, from the load core.
read -r pg50 pg99 js50 js99 <<< "$(DATABASE_URL="$URL" RUST_LOG=error taskset -c 1 "$FLOOR_ERP" bench-floor --nats "nats://127.0.0.1:$NATS_PORT" --n 500)"
floor50=$(python3 -c "print(f'{$pg50 + $js50:.3f}')")
floor99=$(python3 -c "print(f'{$pg99 + $js99:.3f}')")

# Invoice -> exit latency of a serie: "p50 p99 max".
lag() { # serie
    sql "SET app.client_id = '$CLIENT';
SELECT round(percentile_cont(0.5) WITHIN GROUP (ORDER BY ms)::numeric, 2), round(percentile_cont(0.99) WITHIN GROUP (ORDER BY ms)::numeric, 2), round(max(ms)::numeric, 2)
FROM (SELECT extract(epoch FROM max(m.movi_data) - p.pedf_dta_faturamento) * 1000 AS ms
      FROM orders.pedido p JOIN stock.movimentos m ON m.client_id = p.client_id AND m.movi_emp_id = p.pedf_emp_id
       AND m.movi_origem = 'PEDIDO' AND m.movi_origem_id = p.pedf_emp_id || '/$1/' || p.pedf_id
      WHERE p.pedf_serie = '$1' AND p.pedf_situacao = 'F' GROUP BY p.pedf_id, p.pedf_dta_faturamento) t" | tail -1 | tr '|' ' '
}
invoiced() { sql "SET app.client_id = '$CLIENT'; SELECT count(*) FROM orders.pedido WHERE pedf_serie = '$1' AND pedf_situacao = 'F'" | tail -1; }
exits() { sql "SET app.client_id = '$CLIENT'; SELECT count(*) FROM stock.movimentos WHERE movi_origem = 'PEDIDO' AND movi_origem_id LIKE '$EMP/$1/%'" | tail -1; }
settle() { # serie: waits until every invoiced order of the serie has its two exits
    local n e
    # The count is read again each time: a request wrk gave up on at the end of its
    # run may still commit after the load stopped.
    for _ in $(seq 1 1200); do
        n=$(invoiced "$1")
        e=$(exits "$1")
        [ "$e" -ge $((n * 2)) ] && break
        sleep 0.25
    done
    [ "$e" -eq $((n * 2)) ] || { say "serie $1: stock has $e exits for $n orders"; exit 1; }
    echo "$n"
}

# Isolated invoices: one at a time, 50 ms apart, over one keep-alive connection,
# each followed, as a user's screen would, by `GET /produtosestoquebd/3/{emp}` on the
# same connection until the order's exit of product 3 shows in the balance: the
# outside figure (invoice call sent -> balance seen), and the invoice call alone.
say "isolated invoices"
read -r o50 o99 c50 c99 <<< "$(taskset -c 1 python3 - "$PORT" "$TOKEN" "$EMP" <<'PY'
import http.client, json, sys, time
from decimal import Decimal
port, token, emp = sys.argv[1], sys.argv[2], sys.argv[3]
c = http.client.HTTPConnection("127.0.0.1", int(port))
auth = {"authorization": f"Bearer {token}"}
def balance():
    c.request("GET", f"/produtosestoquebd/3/{emp}", headers=auth)
    r = c.getresponse(); body = r.read()
    if r.status != 200:
        sys.exit(f"balance: HTTP {r.status}")
    return Decimal(str(json.loads(body)["SALDO_FISICO"]))
outside, call = [], []
for i in range(1, 201):
    before = balance()
    start = time.perf_counter()
    c.request("PUT", f"/pedidogenerator/{i}/{emp}/7", headers=auth)
    r = c.getresponse(); r.read()
    if r.status != 200:
        sys.exit(f"invoice {i}: HTTP {r.status}")
    call.append((time.perf_counter() - start) * 1000)
    # Line 2 of every serie-7 order takes 2 of product 3.
    while balance() != before - 2:
        if time.perf_counter() - start > 30:
            sys.exit(f"invoice {i}: the balance did not move in 30 s")
    outside.append((time.perf_counter() - start) * 1000)
    time.sleep(0.05)
q = lambda v, p: sorted(v)[min(len(v) - 1, int(p * len(v)))]
print(f"{q(outside, .5):.2f} {q(outside, .99):.2f} {q(call, .5):.2f} {q(call, .99):.2f}")
PY
)"
settle 7 >/dev/null
read -r i50 i99 imax <<< "$(lag 7)"

# Sustained load: 16 connections, each invoicing its own range of order numbers.
sustained() { # serie -> "rps invoices exits_per_s p50 p99 drain_ms"
    cat > "$WORK/inv.lua" <<LUA
local counter = 0
function setup(thread)
  thread:set("tid", counter)
  counter = counter + 1
end
function init(args)
  n = 0
  base = tid * $((ORDERS / 2))
end
function request()
  n = n + 1
  return wrk.format("PUT", "/pedidogenerator/" .. (base + n) .. "/$EMP/$1", {["authorization"] = "Bearer $TOKEN"})
end
LUA
    taskset -c 1 wrk -t2 -c16 -d"${SECS}s" --latency -s "$WORK/inv.lua" "http://127.0.0.1:$PORT" > "$WORK/wrk.txt"
    if grep -q "Non-2xx" "$WORK/wrk.txt"; then cat "$WORK/wrk.txt" >&2; say "non-2xx answers"; exit 1; fi
    local rps n l50 l99 lmax rate drain
    rps=$(sed -n 's/^Requests\/sec:\s*\([0-9.]*\).*/\1/p' "$WORK/wrk.txt")
    n=$(settle "$1")
    read -r l50 l99 lmax <<< "$(lag "$1")"
    read -r rate drain <<< "$(sql "SET app.client_id = '$CLIENT';
WITH inv AS (SELECT min(pedf_dta_faturamento) AS first, max(pedf_dta_faturamento) AS last FROM orders.pedido
             WHERE pedf_serie = '$1' AND pedf_situacao = 'F'),
     ex AS (SELECT max(movi_data) AS last, count(*) AS n FROM stock.movimentos WHERE movi_origem = 'PEDIDO' AND movi_origem_id LIKE '$EMP/$1/%')
SELECT round(ex.n / extract(epoch FROM ex.last - inv.first)::numeric, 1), round((extract(epoch FROM ex.last - inv.last) * 1000)::numeric, 1)
FROM inv, ex" | tail -1 | tr '|' ' ')"
    echo "$rps $n $rate $l50 $l99 $drain"
}
say "sustained load on 2 hot products"
read -r h_rps h_n h_rate h50 h99 hdrain <<< "$(sustained 8)"
say "sustained load on $SPREAD products"
read -r s_rps s_n s_rate s50 s99 sdrain <<< "$(sustained 9)"
ratio() { python3 -c "print(f'{$1 / $2:.1f}')"; }
{
    echo "# Invoicing over NATS JetStream ($(date -u +%F); server on core 0, load on core 1; sustained runs ${SECS}s at 16 connections)"
    echo
    echo "| measure | value |"
    echo "|---|---|"
    echo "| floor: PostgreSQL commit round trip p50 / p99 | ${pg50} ms / ${pg99} ms |"
    echo "| floor: JetStream publish with ack p50 / p99 | ${js50} ms / ${js99} ms |"
    echo "| floor: commit + publish p50 / p99 | ${floor50} ms / ${floor99} ms |"
    echo "| isolated invoices (200, 50 ms apart): invoice -> balance p50 / p99 (max) | ${i50} ms / ${i99} ms (${imax} ms) |"
    echo "| isolated: ratio to the floor, p50 / p99 | $(ratio "$i50" "$floor50")x / $(ratio "$i99" "$floor99")x |"
    echo "| isolated, from outside: invoice call sent -> balance seen by GET /produtosestoquebd p50 / p99 | ${o50} ms / ${o99} ms |"
    echo "| isolated, from outside: the invoice call alone p50 / p99 | ${c50} ms / ${c99} ms |"
    echo "| 2 hot products: invoices/s, exits applied/s | ${h_rps} ($h_n invoiced), ${h_rate} |"
    echo "| 2 hot products: invoice -> balance p50 / p99 (queue included) | ${h50} ms / ${h99} ms |"
    echo "| 2 hot products: last invoice -> last exit (backlog drained) | ${hdrain} ms |"
    echo "| $SPREAD products: invoices/s, exits applied/s | ${s_rps} ($s_n invoiced), ${s_rate} |"
    echo "| $SPREAD products: invoice -> balance p50 / p99 (queue included) | ${s50} ms / ${s99} ms |"
    echo "| $SPREAD products: last invoice -> last exit (backlog drained) | ${sdrain} ms |"
} | tee "$OUT/invoices.md"
