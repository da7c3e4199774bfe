#!/usr/bin/env bash
# `make bench`, second part: invoicing over the bus. The whole product runs (release
# build, pinned to core 0) with a NATS JetStream server of this script's own; the
# demo data gives the customers and products (their copies reach orders and stock
# as events). Open billing orders with two product lines each are bulk-loaded, then
# `PUT /pedidogenerator/{id}/{emp}/{serie}` is driven by wrk from core 1:
#   - latency at 1 connection and throughput at 16 connections (each request
#     invoices a different order; every answer must be 2xx);
#   - the time from an invoice to the stock balance updated: for each invoiced
#     order, stock's exit movement time minus the order's invoice time (both
#     PostgreSQL's clock; the invoice's is its transaction start), p50/p99.
# The table is written to target/bench/invoices.md.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ERP=${ERP_BIN:-${CARGO_TARGET_DIR:-$HOME/.cache/erp-target}/release/erp}
SECS=${BENCH_SECS:-10}
PORT=${BENCH_PORT:-8093}
ORDERS=${BENCH_ORDERS:-40000}
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

# Benchmark data: open orders in serie 9, customer 1, products 2 and 3 (known to
# orders from the demo's catalog events), numbered from 1.
say "loading $ORDERS open orders"
sql "SET app.client_id = '$CLIENT';
INSERT INTO orders.pedido (client_id, pedf_emp_id, pedf_serie, pedf_id, pedf_cli_id, pedf_cli_desc, pedf_cli_cidade)
  SELECT $CLIENT, $EMP, '9', g, 1, 'CLIENTE TESTE LTDA', 'São Paulo' FROM generate_series(1, $ORDERS) g;
INSERT INTO orders.pedidoproduto (client_id, pedi_pedf_emp_id, pedi_pedf_id, pedi_pedf_serie_id, pedi_pedf_item, pedi_prod_id,
    pedi_descricao, pedi_qtde, pedi_vlr_unitario, pedi_vlr_total)
  SELECT $CLIENT, $EMP, g, '9', i, i + 1, 'ITEM', i, 10, 10 * i FROM generate_series(1, $ORDERS) g, generate_series(1, 2) i;
ANALYZE orders.pedido; ANALYZE orders.pedidoproduto;" >/dev/null

# wrk: each connection invoices its own range of order numbers.
run_wrk() { # conns first_id ids_per_thread -> "p50 p99 rps count"
    cat > "$WORK/inv.lua" <<LUA
local counter = 0
function setup(thread)
  thread:set("tid", counter)
  counter = counter + 1
end
function init(args)
  n = 0
  base = $2 + tid * $3
end
function request()
  n = n + 1
  return wrk.format("PUT", "/pedidogenerator/" .. (base + n) .. "/$EMP/9", {["authorization"] = "Bearer $TOKEN"})
end
LUA
    local threads=1; [ "$1" -gt 1 ] && threads=2
    taskset -c 1 wrk -t"$threads" -c"$1" -d"${SECS}s" --latency -s "$WORK/inv.lua" "http://127.0.0.1:$PORT" > "$WORK/wrk.txt"
    if grep -q "Non-2xx" "$WORK/wrk.txt"; then cat "$WORK/wrk.txt" >&2; say "non-2xx answers"; exit 1; fi
    python3 - "$WORK/wrk.txt" <<'PY'
import re, sys
t = open(sys.argv[1]).read()
def ms(v, u): return float(v) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[u]
lat = {m.group(1): ms(m.group(2), m.group(3)) for m in re.finditer(r"^\s+(\d+)%\s+([\d.]+)(us|ms|s)\s*$", t, re.M)}
rps = float(re.search(r"Requests/sec:\s+([\d.]+)", t).group(1))
n = int(re.search(r"(\d+) requests in", t).group(1))
print(f"{lat['50']:.3f} {lat['99']:.3f} {rps:.1f} {n}")
PY
}

read -r l50 l99 _ n1 <<< "$(run_wrk 1 0 $((ORDERS / 4)))"
read -r _ _ rps n16 <<< "$(run_wrk 16 $((ORDERS / 4)) $((ORDERS * 3 / 8)))"
invoiced=$(sql "SET app.client_id = '$CLIENT'; SELECT count(*) FROM orders.pedido WHERE pedf_serie = '9' AND pedf_situacao = 'F'" | tail -1)
say "$invoiced orders invoiced; waiting for stock"
for _ in $(seq 1 600); do
    exits=$(sql "SET app.client_id = '$CLIENT'; SELECT count(*) FROM stock.movimentos WHERE movi_origem = 'PEDIDO' AND movi_origem_id LIKE '$EMP/9/%'" | tail -1)
    [ "$exits" -ge $((invoiced * 2)) ] && break
    sleep 0.5
done
[ "$exits" -eq $((invoiced * 2)) ] || { say "stock has $exits exits for $invoiced orders"; exit 1; }
# Invoice -> exit latency per run: "p50 p99 max" of the orders whose ids fall in a range.
lag() { # first_id last_id
    sql "SET app.client_id = '$CLIENT';
SELECT round(percentile_cont(0.5) WITHIN GROUP (ORDER BY ms)::numeric, 1), round(percentile_cont(0.99) WITHIN GROUP (ORDER BY ms)::numeric, 1), round(max(ms)::numeric, 1)
FROM (SELECT extract(epoch FROM m.movi_data - p.pedf_dta_faturamento) * 1000 AS ms
      FROM orders.pedido p JOIN stock.movimentos m ON m.client_id = p.client_id AND m.movi_emp_id = p.pedf_emp_id
       AND m.movi_origem = 'PEDIDO' AND m.movi_origem_id = p.pedf_emp_id || '/9/' || p.pedf_id AND m.movi_prod_id = 2
      WHERE p.pedf_serie = '9' AND p.pedf_situacao = 'F' AND p.pedf_id BETWEEN $1 AND $2) t" | tail -1 | tr '|' ' '
}
read -r a50 a99 amax <<< "$(lag 1 $((ORDERS / 4)))"
read -r e50 e99 emax <<< "$(lag $((ORDERS / 4 + 1)) $ORDERS)"
bal=$(sql "SET app.client_id = '$CLIENT'; SELECT sald_qtde FROM stock.saldos WHERE sald_emp_id = $EMP AND sald_prod_id = 2" | tail -1)
{
    echo "# Invoicing over NATS JetStream ($(date -u +%F), ${SECS}s per run, server on core 0, load on core 1)"
    echo
    echo "| measure | value |"
    echo "|---|---|"
    echo "| invoice call p50 / p99 at 1 connection | ${l50} ms / ${l99} ms ($n1 invoices) |"
    echo "| invoices per second at 16 connections | ${rps} ($n16 invoices) |"
    echo "| invoice -> balance updated p50 / p99 (max), 1 connection | ${a50} ms / ${a99} ms (${amax} ms) |"
    echo "| invoice -> balance updated p50 / p99 (max), 16 connections (stock's queue included) | ${e50} ms / ${e99} ms (${emax} ms) |"
    echo "| orders invoiced / stock exits | $invoiced / $exits (2 lines each; product 2 balance now $bal) |"
} | tee "$OUT/invoices.md"
