#!/usr/bin/env bash
# `make bench`: registers at a million rows. Seeds 1,000,000 customers in one
# company, then measures list (20 rows, ordered, with and without FILTRO), count
# and search through the gateway (wrk) and the same SQL directly on PostgreSQL
# (pgbench, prepared statements, as the application role inside a tenant
# transaction): p50/p99 at 1 client and requests/s at 16 clients, each as a
# ratio to the raw figure. The server runs pinned to core 0, the load generator
# to core 1. The table is written to target/bench/registers.md.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ERP=${ERP_BIN:-${CARGO_TARGET_DIR:-$HOME/.cache/erp-target}/release/erp}
ROWS=${BENCH_ROWS:-1000000}
SECS=${BENCH_SECS:-10}
PORT=${BENCH_PORT:-8092}
BASE_URL=${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/erp}
DB=erp_bench
ADMIN_URL="${BASE_URL%/*}/postgres"
BENCH_URL="${BASE_URL%/*}/$DB"
APP_URL=$(python3 -c "import sys,urllib.parse as u; p=u.urlsplit(sys.argv[1]); print(p._replace(netloc='erp_app@'+p.hostname+(':'+str(p.port) if p.port else '')).geturl())" "$BENCH_URL")
OUT="$ROOT/target/bench"
WORK=$(mktemp -d)
CLIENT=2
EMP=1
mkdir -p "$OUT"

command -v wrk >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null; }
command -v pgbench >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql-contrib >/dev/null; }

say() { printf 'bench: %s\n' "$*" >&2; }

fresh=0
if ! psql -X -q -tA "$ADMIN_URL" -c "SELECT 1 FROM pg_database WHERE datname = '$DB'" | grep -q 1; then
    psql -X -q "$ADMIN_URL" -c "CREATE DATABASE $DB" >/dev/null
    fresh=1
fi
DATABASE_URL="$BENCH_URL" ERP_DATA_DIR="$WORK" "$ERP" seed-demo >/dev/null
have=$(psql -X -q -tA "$BENCH_URL" -c "SELECT count(*) FROM catalog.clientes WHERE client_id = $CLIENT AND cli_emp_id = $EMP")
if [ "$have" -lt "$ROWS" ]; then
    say "seeding $((ROWS - have)) customers (fresh=$fresh)"
    DATABASE_URL="$BENCH_URL" "$ERP" bench-seed clientes --client $CLIENT --emp $EMP --rows $((ROWS - have))
fi
say "$(psql -X -q -tA "$BENCH_URL" -c "SELECT count(*) FROM catalog.clientes WHERE client_id = $CLIENT") customers"

env -u NATS_URL -u REDIS_URL DATABASE_URL="$BENCH_URL" ERP_HTTP_ADDR="127.0.0.1:$PORT" ERP_DATA_DIR="$WORK" \
    ERP_WEB_DIR="$ROOT/web/dist" RUST_LOG=warn taskset -c 0 "$ERP" run >"$WORK/erp.log" 2>&1 &
PID=$!
cleanup() { kill "$PID" 2>/dev/null || true; wait "$PID" 2>/dev/null || true; rm -rf "$WORK"; }
trap cleanup EXIT
for _ in $(seq 1 120); do curl -fsS "http://127.0.0.1:$PORT/readyz" >/dev/null 2>&1 && break; sleep 0.5; done
TOKEN=$(curl -fsS -X POST "http://127.0.0.1:$PORT/usuarios/sessions" -H 'content-type: application/json' \
    -d '{"cpfcnpj":"11.222.333/0001-81","usuario":"admin","senha":"admin123"}' | python3 -c 'import json,sys;print(json.load(sys.stdin)["token"])')

# wrk: one scenario, one connection count; prints "p50_ms p99_ms rps".
run_wrk() { # method path body conns
    local lua="$WORK/req.lua"
    printf 'wrk.method = "%s"\nwrk.body = %s\nwrk.headers["content-type"] = "application/json"\nwrk.headers["authorization"] = "Bearer %s"\n' \
        "$1" "$(python3 -c 'import json,sys;print(json.dumps(sys.argv[1]))' "$3")" "$TOKEN" > "$lua"
    local threads=1; [ "$4" -gt 1 ] && threads=2
    taskset -c 1 wrk -t"$threads" -c"$4" -d"${SECS}s" --latency -s "$lua" "http://127.0.0.1:$PORT$2" > "$WORK/wrk.txt"
    if grep -q "Non-2xx" "$WORK/wrk.txt"; then cat "$WORK/wrk.txt" >&2; say "non-2xx answers for $1 $2"; exit 1; fi
    python3 - "$WORK/wrk.txt" <<'PY'
import re, sys
t = open(sys.argv[1]).read()
def ms(v, u): return float(v) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[u]
lat = {m.group(1): ms(m.group(2), m.group(3)) for m in re.finditer(r"^\s+(\d+)%\s+([\d.]+)(us|ms|s)\s*$", t, re.M)}
rps = float(re.search(r"Requests/sec:\s+([\d.]+)", t).group(1))
print(f"{lat['50']:.3f} {lat['99']:.3f} {rps:.1f}")
PY
}

# pgbench: the engine's statement in a tenant transaction, as erp_app.
run_pg() { # scenario conns
    local spec sql defs
    spec=$("$ERP" bench-sql clientes "$1" --client $CLIENT --emp $EMP --filter SILVA)
    python3 - "$spec" "$WORK/pg.sql" "$WORK/pg.defs" $CLIENT <<'PY'
import json, re, sys
spec = json.loads(sys.argv[1]); sql = spec["sql"]
for i in range(len(spec["params"]), 0, -1):
    sql = sql.replace(f"${i}", f":p{i}")
open(sys.argv[2], "w").write(f"BEGIN;\nSELECT set_config('app.client_id', '{sys.argv[4]}', true);\n{sql};\nCOMMIT;\n")
open(sys.argv[3], "w").write("".join(f"p{i+1}={p}\n" for i, p in enumerate(spec["params"])))
PY
    local args=() jobs=1
    while IFS= read -r d; do args+=(-D "$d"); done < "$WORK/pg.defs"
    [ "$2" -gt 1 ] && jobs=2
    rm -f "$WORK"/pgbench_log.*
    (cd "$WORK" && taskset -c 1 pgbench -n -M prepared -c "$2" -j "$jobs" -T "$SECS" "${args[@]}" -f pg.sql -l --log-prefix=pgbench_log "$APP_URL" > pgbench.txt 2>&1) \
        || { cat "$WORK/pgbench.txt" >&2; exit 1; }
    python3 - "$WORK" <<'PY'
import glob, re, sys
lat = sorted(int(l.split()[2]) / 1000.0 for f in glob.glob(sys.argv[1] + "/pgbench_log.*") for l in open(f))
tps = float(re.search(r"tps = ([\d.]+)", open(sys.argv[1] + "/pgbench.txt").read()).group(1))
q = lambda p: lat[min(len(lat) - 1, int(p * len(lat)))]
print(f"{q(0.50):.3f} {q(0.99):.3f} {tps:.1f}")
PY
}

declare -A HTTP=(
    [list]="POST /clientes/$EMP {\"ORDENACAO\":\"CLI_DESCRICAO\",\"LIMIT\":20}"
    [filtro]="POST /clientes/$EMP {\"ORDENACAO\":\"CLI_DESCRICAO\",\"FILTRO\":\"SILVA\",\"LIMIT\":20}"
    [count]="POST /clientes/registros/$EMP {}"
    [search]="GET /clientes/pesquisar/SILVA/$EMP "
)
{
    echo "# Registers at $(psql -X -q -tA "$BENCH_URL" -c "SELECT count(*) FROM catalog.clientes WHERE client_id = $CLIENT") customers ($(date -u +%F), ${SECS}s per run, server on core 0, load on core 1)"
    echo
    echo "| scenario | gateway p50 ms | raw p50 ms | ratio | gateway p99 ms | raw p99 ms | ratio | gateway req/s @16 | raw tps @16 | ratio |"
    echo "|---|---|---|---|---|---|---|---|---|---|"
    for s in list filtro count search; do
        read -r m p b <<< "${HTTP[$s]}"
        read -r g50 g99 _ <<< "$(run_wrk "$m" "$p" "$b" 1)"
        read -r _ _ grps <<< "$(run_wrk "$m" "$p" "$b" 16)"
        read -r r50 r99 _ <<< "$(run_pg "$s" 1)"
        read -r _ _ rtps <<< "$(run_pg "$s" 16)"
        python3 -c "import sys; a=list(map(float,sys.argv[2:])); print(f'| {sys.argv[1]} | {a[0]:.2f} | {a[1]:.2f} | {a[0]/a[1]:.2f}x | {a[2]:.2f} | {a[3]:.2f} | {a[2]/a[3]:.2f}x | {a[4]:.0f} | {a[5]:.0f} | {a[4]/a[5]:.2f} |')" \
            "$s" "$g50" "$r50" "$g99" "$r99" "$grps" "$rtps"
    done
} | tee "$OUT/registers.md"
