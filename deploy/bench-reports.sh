#!/usr/bin/env bash
# `make bench` (reports): the dashboard and the monthly product curve at ten
# million invoiced order lines, and the time to rebuild the read model.
#
#  1. Seeds 2,000,000 invoiced orders × 5 lines = 10,000,000 lines of one
#     company over 2025 straight into the reports' read model (bulk, for the
#     bench only: deploy/bench/reports_seed.sql, with the rollups as the facts
#     write them; once, kept in the erp_bench database).
#  2. `erp run` on core 0, wrk on core 1: the eight `/dasboard/{nome}` calls and
#     `/curvaprodutos/reports` (the ABC curve with its months) over the year and
#     over a period that starts and ends inside a month: p50/p99 at 1
#     connection, req/s at 16.
#  3. The naive query beside each sales figure, in the same run: the same
#     answer by GROUP BY over the lines (`reports.vendasitens`, `reports.vendas`)
#     in pgbench on core 1 as the application role in a tenant transaction;
#     p50/p99 and the ratio naive p50 / gateway p50.
#  4. Rebuild: a private NATS server (its own store, so the stream holds exactly
#     the bench's facts) gets BENCH_FACTS invoiced-order facts; `erp
#     reports-rebuild` empties a read model, `erp serve reports` replays the
#     stream into it; the time from start to the last order recorded, per
#     million facts.
# The table goes to target/bench/reports.md.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ERP=${ERP_BIN:-${CARGO_TARGET_DIR:-$HOME/.cache/erp-target}/release/erp}
ORDERS=${BENCH_ORDERS:-2000000}
FACTS=${BENCH_FACTS:-100000}
SECS=${BENCH_SECS:-10}
NAIVE_RUNS=${BENCH_NAIVE_RUNS:-5}
PORT=${BENCH_PORT:-8094}
NATS_PORT=${BENCH_NATS_PORT:-4299}
BASE_URL=${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/erp}
DB=erp_bench
REBUILD_DB=erp_bench_rebuild
ADMIN_URL="${BASE_URL%/*}/postgres"
BENCH_URL="${BASE_URL%/*}/$DB"
REBUILD_URL="${BASE_URL%/*}/$REBUILD_DB"
APP_URL=$(python3 -c "import sys,urllib.parse as u; p=u.urlsplit(sys.argv[1]); print(p._replace(netloc='erp_app@'+p.hostname+(':'+str(p.port) if p.port else '')).geturl())" "$BENCH_URL")
case "$APP_URL" in *\?*) APP_URL="$APP_URL&sslmode=disable" ;; *) APP_URL="$APP_URL?sslmode=disable" ;; esac
OUT="$ROOT/target/bench"
WORK=$(mktemp -d)
CLIENT=2
EMP=1
YEAR='"DATA_INI":"2025-01-01","DATA_FIM":"2025-12-31"'
PART='"DATA_INI":"2025-01-15","DATA_FIM":"2025-11-20"'
mkdir -p "$OUT"

command -v wrk >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null; }
command -v pgbench >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql-contrib >/dev/null; }
NATS_SERVER=$(command -v nats-server || echo /usr/sbin/nats-server)

say() { printf 'bench-reports: %s\n' "$*" >&2; }
. "$ROOT/deploy/bench/lib.sh"
q() { psql -X -q -tA "$@"; }

for d in "$DB" "$REBUILD_DB"; do
    q "$ADMIN_URL" -c "SELECT 1 FROM pg_database WHERE datname = '$d'" | grep -q 1 \
        || psql -X -q "$ADMIN_URL" -c "CREATE DATABASE $d" >/dev/null
done
DATABASE_URL="$BENCH_URL" ERP_DATA_DIR="$WORK" "$ERP" seed-demo >/dev/null
have=$(q "$BENCH_URL" -c "SELECT count(*) FROM reports.vendas WHERE client_id = $CLIENT AND emp_id = $EMP AND pedf_id > 90000000")
if [ "$have" -eq 0 ]; then
    say "seeding $ORDERS orders × 5 lines (once)"
    t0=$(date +%s)
    psql -X -q "$BENCH_URL" -v client=$CLIENT -v emp=$EMP -v orders="$ORDERS" -f "$ROOT/deploy/bench/reports_seed.sql" >/dev/null
    say "seeded in $(( $(date +%s) - t0 )) s"
fi
# (An older model without the item rollups reads `vendasdia` only: nothing to fill.)
if [ "$(q "$BENCH_URL" -c "SELECT to_regclass('reports.vendasmes') IS NOT NULL")" = t ] \
    && [ "$(q "$BENCH_URL" -c "SELECT (SELECT count(*) FROM reports.vendasmes WHERE client_id = $CLIENT AND emp_id = $EMP AND item_id > 900000)
                                    * (SELECT count(*) FROM reports.vendasdecendio WHERE client_id = $CLIENT AND emp_id = $EMP AND item_id > 900000)")" -eq 0 ]; then
    say "item rollups of the bench's lines"
    psql -X -q "$BENCH_URL" -v client=$CLIENT -v emp=$EMP -f "$ROOT/deploy/bench/reports_seed_rollups.sql" >/dev/null
fi
LINES=$(q "$BENCH_URL" -c "SELECT count(*) FROM reports.vendasitens WHERE client_id = $CLIENT AND emp_id = $EMP")
say "$LINES order lines"

# --- through the gateway -----------------------------------------------------
env -u NATS_URL -u REDIS_URL DATABASE_URL="$BENCH_URL" ERP_HTTP_ADDR="127.0.0.1:$PORT" ERP_DATA_DIR="$WORK" \
    ERP_WEB_DIR="$ROOT/web/dist" RUST_LOG=warn taskset -c 0 "$ERP" run >"$WORK/run.log" 2>&1 &
PIDS+=($!)
ready "http://127.0.0.1:$PORT/readyz"
TOKEN=$(login)

# pgbench, one client, a fixed number of runs: prints "p50_ms p99_ms".
run_naive() { # sql-file
    rm -f "$WORK"/pgbench_log.*
    (cd "$WORK" && taskset -c 1 pgbench -n -M prepared -c 1 -t "$NAIVE_RUNS" -f "$1" -l --log-prefix=pgbench_log "$APP_URL" > pgbench.txt 2>&1) \
        || { cat "$WORK/pgbench.txt" >&2; exit 1; }
    python3 - "$WORK" <<'PY'
import glob, sys
lat = sorted(int(l.split()[2]) / 1000.0 for f in glob.glob(sys.argv[1] + "/pgbench_log.*") for l in open(f))
q = lambda p: lat[min(len(lat) - 1, int(p * len(lat)))]
print(f"{q(0.50):.3f} {q(0.99):.3f}")
PY
}
naive_sql() { # name select
    printf "BEGIN;\nSELECT set_config('app.client_id', '%s', true);\n%s;\nCOMMIT;\n" "$CLIENT" "$2" > "$WORK/$1.sql"
    echo "$WORK/$1.sql"
}
LINES_JOIN="FROM reports.vendasitens l
 LEFT JOIN reports.produtos p ON p.client_id = l.client_id AND p.emp_id = l.emp_id AND p.prod_id = l.item_id"
lines_where() { echo "WHERE l.client_id = $CLIENT AND l.emp_id = $EMP AND l.dta BETWEEN '$1' AND '$2' AND l.tipo = 'P'"; }
declare -A NAIVE=(
    [curve]="SELECT l.item_id, min(coalesce(p.descricao, 'Produto ' || l.item_id)), extract(month FROM l.dta)::int, sum(l.qtde), sum(l.vlr_total) $LINES_JOIN $(lines_where 2025-01-01 2025-12-31) GROUP BY 1, 3"
    [curve-part]="SELECT l.item_id, min(coalesce(p.descricao, 'Produto ' || l.item_id)), extract(month FROM l.dta)::int, sum(l.qtde), sum(l.vlr_total) $LINES_JOIN $(lines_where 2025-01-15 2025-11-20) GROUP BY 1, 3"
    [vendasgrupo]="SELECT coalesce(p.grup_id, 0), min(coalesce(g.descricao, 'Sem grupo')), sum(l.qtde), sum(l.vlr_total) $LINES_JOIN
 LEFT JOIN reports.grupos g ON g.client_id = p.client_id AND g.emp_id = 0 AND g.grup_id = p.grup_id $(lines_where 2025-01-01 2025-12-31) GROUP BY 1 ORDER BY 4 DESC"
    [vendassubgrupo]="SELECT coalesce(p.gsub_id, 0), min(coalesce(s.descricao, 'Sem subgrupo')), sum(l.qtde), sum(l.vlr_total) $LINES_JOIN
 LEFT JOIN reports.subgrupos s ON s.client_id = p.client_id AND s.emp_id = p.emp_id AND s.gsub_id = p.gsub_id $(lines_where 2025-01-01 2025-12-31) GROUP BY 1 ORDER BY 4 DESC"
    [formaspagamentos]="SELECT coalesce(f.descricao, 'Sem forma de pagamento'), sum(v.total) FROM reports.vendas v
 LEFT JOIN reports.formaspagamento f ON f.client_id = v.client_id AND f.emp_id = 0 AND f.frmp_id = v.frmp_id
 WHERE v.client_id = $CLIENT AND v.emp_id = $EMP AND v.dta BETWEEN '2025-01-01' AND '2025-12-31' GROUP BY 1 ORDER BY 2 DESC"
)
SCENARIOS=(curve curve-part vendasgrupo vendassubgrupo formaspagamentos vendassetor contasreceber contaspagar despesacentrocusto despesagrupocentrocusto)
declare -A PATHS BODIES R
for s in "${SCENARIOS[@]}"; do
    case "$s" in
        curve) PATHS[$s]=/curvaprodutos/reports; BODIES[$s]="{\"EMP_ID\":$EMP,$YEAR}" ;;
        curve-part) PATHS[$s]=/curvaprodutos/reports; BODIES[$s]="{\"EMP_ID\":$EMP,$PART}" ;;
        *) PATHS[$s]=/dasboard/$s; BODIES[$s]="{\"EMP_ID\":$EMP,$YEAR}" ;;
    esac
done
# The gateway's curve must be the naive query's curve (same products, same totals).
curl -fsS -X POST "http://127.0.0.1:$PORT/curvaprodutos/reports" -H "authorization: Bearer $TOKEN" \
    -H 'content-type: application/json' -d "${BODIES[curve]}" > "$WORK/curve.json"
printf "BEGIN;\nSELECT set_config('app.client_id', '%s', true);\nSELECT count(DISTINCT l.item_id) || ' ' || sum(l.vlr_total) %s %s;\nCOMMIT;\n" \
    "$CLIENT" "$LINES_JOIN" "$(lines_where 2025-01-01 2025-12-31)" | q "$APP_URL" | tail -1 > "$WORK/naive-curve.txt"
python3 - "$WORK/curve.json" "$WORK/naive-curve.txt" <<'PY'
import json, sys
from decimal import Decimal
got = json.load(open(sys.argv[1]))
n, total = open(sys.argv[2]).read().split()[:2]
rows = got["dados"]
mine = sum(Decimal(str(r["VALOR"])) for r in rows)
assert len(rows) == int(n), f"curve: {len(rows)} products, the lines have {n}"
assert mine == Decimal(total), f"curve: total {mine}, the lines sum {total}"
print(f"bench-reports: curve checked: {len(rows)} products, total {mine}", file=sys.stderr)
PY
for s in "${SCENARIOS[@]}"; do
    say "$s"
    read -r R[$s.p50] R[$s.p99] _ <<< "$(run_wrk POST "${PATHS[$s]}" "${BODIES[$s]}" 1)"
    read -r _ _ R[$s.rps] <<< "$(run_wrk POST "${PATHS[$s]}" "${BODIES[$s]}" 16)"
done
stop_servers
for s in "${!NAIVE[@]}"; do
    say "naive $s"
    read -r R[$s.np50] R[$s.np99] <<< "$(run_naive "$(naive_sql "$s" "${NAIVE[$s]}")")"
done

# --- rebuild from the stream -----------------------------------------------
if [ "${BENCH_REBUILD:-1}" = 0 ]; then REBUILD_S=-; PER_M=-; PER_ML=-; else
say "rebuild: $FACTS facts on a private NATS"
mkdir -p "$WORK/nats"
"$NATS_SERVER" -a 127.0.0.1 -p "$NATS_PORT" -js -sd "$WORK/nats" >"$WORK/nats.log" 2>&1 &
PIDS+=($!)
for _ in $(seq 1 100); do (echo > "/dev/tcp/127.0.0.1/$NATS_PORT") 2>/dev/null && break; sleep 0.1; done
PRIVATE="nats://127.0.0.1:$NATS_PORT"
"$ERP" bench-facts --nats "$PRIVATE" --client $CLIENT --emp $EMP --orders "$FACTS"
DATABASE_URL="$REBUILD_URL" ERP_DATA_DIR="$WORK" "$ERP" seed-demo >/dev/null
NATS_URL="$PRIVATE" DATABASE_URL="$REBUILD_URL" "$ERP" reports-rebuild >/dev/null
t0=$(date +%s.%N)
NATS_URL="$PRIVATE" DATABASE_URL="$REBUILD_URL" ERP_DATA_DIR="$WORK" RUST_LOG=warn \
    ERP_GRPC_ADDR="127.0.0.1:$((PORT + 100))" ERP_ADMIN_ADDR="127.0.0.1:$((PORT + 200))" \
    taskset -c 0 "$ERP" serve reports >"$WORK/reports.log" 2>&1 &
PIDS+=($!)
while :; do
    done_n=$(q "$REBUILD_URL" -c "SELECT count(*) FROM reports.vendas WHERE client_id = $CLIENT AND pedf_id >= 80000000")
    [ "$done_n" -ge "$FACTS" ] && break
    kill -0 "${PIDS[-1]}" 2>/dev/null || { cat "$WORK/reports.log" >&2; say "the reports service stopped"; exit 1; }
    sleep 0.2
done
t1=$(date +%s.%N)
stop_servers
REBUILD_S=$(python3 -c "print(f'{$t1 - $t0:.1f}')")
PER_M=$(python3 -c "print(f'{($t1 - $t0) * 1e6 / $FACTS:.0f}')")
PER_ML=$(python3 -c "print(f'{($t1 - $t0) * 1e6 / ($FACTS * 5):.0f}')")
fi

f() { python3 -c "import sys; print(f'{float(sys.argv[1]):.2f}')" "$1"; }
x() { python3 -c "import sys; print(f'{float(sys.argv[1]) / float(sys.argv[2]):.0f}x')" "$1" "$2"; }
n() { python3 -c "import sys; print(f'{float(sys.argv[1]):.0f}')" "$1"; }
{
    echo "# Reports at $LINES order lines ($(date -u +%F), ${SECS}s per gateway run, naive query $NAIVE_RUNS runs; servers on core 0, load on core 1)"
    echo
    echo "Gateway: \`erp run\`, the call with its authentication, over 2025 (curve-part: 15/01–20/11). Naive: the same answer by GROUP BY over the lines in pgbench (application role, tenant transaction)."
    echo
    echo "| call | p50 ms | p99 ms | req/s @16 | naive p50 ms | naive p99 ms | naive / gateway p50 |"
    echo "|---|---|---|---|---|---|---|"
    for s in "${SCENARIOS[@]}"; do
        if [ -n "${R[$s.np50]:-}" ]; then
            echo "| ${PATHS[$s]} ($s) | $(f "${R[$s.p50]}") | $(f "${R[$s.p99]}") | $(n "${R[$s.rps]}") | $(f "${R[$s.np50]}") | $(f "${R[$s.np99]}") | $(x "${R[$s.np50]}" "${R[$s.p50]}") |"
        else
            echo "| ${PATHS[$s]} | $(f "${R[$s.p50]}") | $(f "${R[$s.p99]}") | $(n "${R[$s.rps]}") | – | – | – |"
        fi
    done
    echo
    echo "Rebuild: $FACTS invoiced-order facts ($((FACTS * 5)) lines) replayed from the stream into an empty read model by \`erp serve reports\` in $REBUILD_S s: $PER_M s per million facts ($PER_ML s per million lines)."
} | tee "$OUT/reports.md"
