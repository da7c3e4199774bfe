#!/usr/bin/env bash
# `make bench`: registers at a million rows. Seeds 1,000,000 customers in one
# company, then measures list (20 rows, ordered, with and without FILTRO), count
# and search through the gateway (wrk), in both deployments:
#   - `erp run`: gateway and services in one process (direct calls of the services' gRPC routes);
#   - `erp gateway` + one `erp serve` per service (gRPC over loopback TCP, NATS);
# the same SQL directly on PostgreSQL (pgbench, prepared statements, as the
# application role inside a tenant transaction); and, for the list, what a Python
# team would build instead (deploy/bench/fastapi_list.py: FastAPI + asyncpg under
# uvicorn/uvloop, same statement, no authentication). p50/p99 at 1 client and
# requests/s at 16 clients, as ratios to the raw figures. Every server runs
# pinned to core 0, every load generator to core 1. The table is written to
# target/bench/registers.md.
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
# No TLS over loopback for any contender (the product's pool does the same).
case "$APP_URL" in *\?*) APP_URL="$APP_URL&sslmode=disable" ;; *) APP_URL="$APP_URL?sslmode=disable" ;; esac
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

NATS=${NATS_URL:-nats://127.0.0.1:4222}
REDIS=${REDIS_URL:-redis://127.0.0.1:6379}
SERVICES=(identity catalog finance stock fiscal orders reports)
. "$ROOT/deploy/bench/lib.sh"
# Everything in one process (what `make run` starts).
start_run() {
    env -u NATS_URL -u REDIS_URL DATABASE_URL="$BENCH_URL" ERP_HTTP_ADDR="127.0.0.1:$PORT" ERP_DATA_DIR="$WORK" \
        ERP_WEB_DIR="$ROOT/web/dist" RUST_LOG=warn taskset -c 0 "$ERP" run >"$WORK/run.log" 2>&1 &
    PIDS+=($!)
    ready "http://127.0.0.1:$PORT/readyz"
}
# The microservice deployment: one process per service and the gateway, gRPC over TCP.
start_split() {
    local i=0 svc urls=()
    for svc in "${SERVICES[@]}"; do
        local grpc=$((PORT + 100 + i)) admin=$((PORT + 200 + i))
        NATS_URL="$NATS" REDIS_URL="$REDIS" DATABASE_URL="$BENCH_URL" ERP_DATA_DIR="$WORK" RUST_LOG=warn \
            ERP_GRPC_ADDR="127.0.0.1:$grpc" ERP_ADMIN_ADDR="127.0.0.1:$admin" \
            taskset -c 0 "$ERP" serve "$svc" >"$WORK/$svc.log" 2>&1 &
        PIDS+=($!)
        urls+=("ERP_${svc^^}_URL=http://127.0.0.1:$grpc")
        i=$((i + 1))
    done
    for j in $(seq 0 $((i - 1))); do ready "http://127.0.0.1:$((PORT + 200 + j))/readyz"; done
    env "${urls[@]}" NATS_URL="$NATS" REDIS_URL="$REDIS" DATABASE_URL="$BENCH_URL" ERP_HTTP_ADDR="127.0.0.1:$PORT" \
        ERP_DATA_DIR="$WORK" ERP_WEB_DIR="$ROOT/web/dist" RUST_LOG=warn taskset -c 0 "$ERP" gateway >"$WORK/gateway.log" 2>&1 &
    PIDS+=($!)
    ready "http://127.0.0.1:$PORT/readyz"
}
# FastAPI + asyncpg serving the list statement (a virtualenv under ~/.cache, from PyPI).
start_fastapi() {
    local venv="${XDG_CACHE_HOME:-$HOME/.cache}/erp-bench-venv"
    if [ ! -x "$venv/bin/uvicorn" ]; then
        say "installing FastAPI, asyncpg, uvicorn[standard], orjson into $venv"
        command -v python3 >/dev/null && python3 -m venv "$venv" 2>/dev/null \
            || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null && python3 -m venv "$venv"; }
        "$venv/bin/pip" install -q fastapi asyncpg 'uvicorn[standard]' orjson
    fi
    "$ERP" bench-sql clientes list --client $CLIENT --emp $EMP --filter SILVA > "$WORK/list.json"
    BENCH_SPEC="$WORK/list.json" BENCH_CLIENT=$CLIENT BENCH_DSN="$APP_URL" \
        taskset -c 0 "$venv/bin/uvicorn" --app-dir "$ROOT/deploy/bench" fastapi_list:app --loop uvloop --http httptools \
        --host 127.0.0.1 --port "$PORT" --workers 1 --log-level warning --no-access-log >"$WORK/fastapi.log" 2>&1 &
    PIDS+=($!)
    ready "http://127.0.0.1:$PORT/openapi.json"
}

# pgbench, as erp_app: the engine's statement in a tenant transaction (`tx`: BEGIN,
# the tenant setting, the statement, COMMIT, with the role's force_custom_plan),
# or alone (`stmt`: the tenant set once per connection, PostgreSQL's default plan
# cache mode), which is how the product now runs its register reads.
run_pg() { # scenario conns [tx|stmt]
    local spec sql defs mode=${3:-tx}
    spec=$("$ERP" bench-sql clientes "$1" --client $CLIENT --emp $EMP --filter SILVA)
    python3 - "$spec" "$WORK/pg.sql" "$WORK/pg.defs" $CLIENT "$mode" <<'PY'
import json, re, sys
spec = json.loads(sys.argv[1]); sql = spec["sql"]
for i in range(len(spec["params"]), 0, -1):
    sql = sql.replace(f"${i}", f":p{i}")
if sys.argv[5] == "tx":
    script = f"BEGIN;\nSELECT set_config('app.client_id', '{sys.argv[4]}', true);\n{sql};\nCOMMIT;\n"
else:
    script = f"{sql};\n"
open(sys.argv[2], "w").write(script)
open(sys.argv[3], "w").write("".join(f"p{i+1}={p}\n" for i, p in enumerate(spec["params"])))
PY
    local args=() jobs=1
    while IFS= read -r d; do args+=(-D "$d"); done < "$WORK/pg.defs"
    [ "$2" -gt 1 ] && jobs=2
    rm -f "$WORK"/pgbench_log.*
    local pgopts=""
    [ "$mode" = stmt ] && pgopts="-c app.client_id=$CLIENT -c plan_cache_mode=auto"
    (cd "$WORK" && PGOPTIONS="$pgopts" taskset -c 1 pgbench -n -M prepared -c "$2" -j "$jobs" -T "$SECS" "${args[@]}" -f pg.sql -l --log-prefix=pgbench_log "$APP_URL" > pgbench.txt 2>&1) \
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
SCENARIOS=(list filtro count search)
declare -A R
measure() { # mode: fills R[mode.scenario.{p50,p99,rps}]
    local s m p b a b2 c
    for s in "${SCENARIOS[@]}"; do
        read -r m p b <<< "${HTTP[$s]}"
        read -r a b2 _ <<< "$(run_wrk "$m" "$p" "$b" 1)"
        read -r _ _ c <<< "$(run_wrk "$m" "$p" "$b" 16)"
        R[$1.$s.p50]=$a; R[$1.$s.p99]=$b2; R[$1.$s.rps]=$c
    done
}
# Connections: /healthz on kept-alive connections (wrk, 16) beside one new connection
# per request (wrk with `Connection: close`: new connections/s), and the fresh
# connection's connect -> first byte p50/p99 at one client (deploy/bench/fresh_conn.py).
connections() {
    local lua="$WORK/close.lua"
    read -r _ _ R[conn.keep.rps] <<< "$(run_wrk GET /healthz "" 16)"
    printf 'wrk.headers["connection"] = "close"\n' > "$lua"
    taskset -c 1 wrk -t2 -c16 -d"${SECS}s" --timeout 60s -s "$lua" "http://127.0.0.1:$PORT/healthz" > "$WORK/wrk.txt"
    R[conn.new.rps]=$(python3 -c 'import re,sys; print(re.search(r"Requests/sec:\s+([\d.]+)", open(sys.argv[1]).read()).group(1))' "$WORK/wrk.txt")
    read -r R[conn.fresh.p50] R[conn.fresh.p99] <<< "$(taskset -c 1 python3 "$ROOT/deploy/bench/fresh_conn.py" 127.0.0.1 "$PORT" /healthz 2000)"
    read -r R[conn.keep.p50] R[conn.keep.p99] _ <<< "$(run_wrk GET /healthz "" 1)"
}
say "erp run (in process)"
start_run; TOKEN=$(login); connections; measure run; stop_servers
say "erp gateway + erp serve (gRPC over TCP)"
start_split; TOKEN=$(login); measure split; stop_servers
say "raw SQL (pgbench)"
for s in "${SCENARIOS[@]}"; do
    read -r R[raw.$s.p50] R[raw.$s.p99] _ <<< "$(run_pg "$s" 1)"
    read -r _ _ R[raw.$s.rps] <<< "$(run_pg "$s" 16)"
    read -r R[stmt.$s.p50] R[stmt.$s.p99] _ <<< "$(run_pg "$s" 1 stmt)"
    read -r _ _ R[stmt.$s.rps] <<< "$(run_pg "$s" 16 stmt)"
done
say "FastAPI + asyncpg (list)"
start_fastapi; TOKEN=none
read -r m p b <<< "${HTTP[list]}"
read -r R[py.list.p50] R[py.list.p99] _ <<< "$(run_wrk "$m" "$p" "$b" 1)"
read -r _ _ R[py.list.rps] <<< "$(run_wrk "$m" "$p" "$b" 16)"
stop_servers

f() { python3 -c "import sys; print(f'{float(sys.argv[1]):.2f}')" "$1"; }
x() { python3 -c "import sys; print(f'{float(sys.argv[1]) / float(sys.argv[2]):.2f}x')" "$1" "$2"; }
n() { python3 -c "import sys; print(f'{float(sys.argv[1]):.0f}')" "$1"; }
{
    echo "# Registers at $(psql -X -q -tA "$BENCH_URL" -c "SELECT count(*) FROM catalog.clientes WHERE client_id = $CLIENT") customers ($(date -u +%F), ${SECS}s per run, servers on core 0, load on core 1)"
    echo
    echo "\`erp run\`: gateway and services in one process (direct calls of the gRPC routes). Split: \`erp gateway\` + one \`erp serve\` per service (gRPC over loopback TCP). Raw: the same statement in pgbench (prepared, tenant transaction, application role). Raw 1-stmt: the statement alone, the tenant set once per connection, default plan cache mode (how the product runs its reads)."
    echo
    echo "| scenario | run p50 ms | split p50 ms | raw p50 ms | 1-stmt p50 ms | run/raw | run p99 ms | split p99 ms | raw p99 ms | run req/s @16 | split req/s @16 | raw tps @16 | 1-stmt tps @16 | run/raw | run/1-stmt |"
    echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
    for s in "${SCENARIOS[@]}"; do
        echo "| $s | $(f "${R[run.$s.p50]}") | $(f "${R[split.$s.p50]}") | $(f "${R[raw.$s.p50]}") | $(f "${R[stmt.$s.p50]}") | $(x "${R[run.$s.p50]}" "${R[raw.$s.p50]}") | $(f "${R[run.$s.p99]}") | $(f "${R[split.$s.p99]}") | $(f "${R[raw.$s.p99]}") | $(n "${R[run.$s.rps]}") | $(n "${R[split.$s.rps]}") | $(n "${R[raw.$s.rps]}") | $(n "${R[stmt.$s.rps]}") | $(x "${R[run.$s.rps]}" "${R[raw.$s.rps]}") | $(x "${R[run.$s.rps]}" "${R[stmt.$s.rps]}") |"
    done
    echo
    echo "Connections (\`erp run\`, GET /healthz): kept-alive $(n "${R[conn.keep.rps]}") req/s @16 (p50 $(f "${R[conn.keep.p50]}") ms at 1), one new connection per request $(n "${R[conn.new.rps]}") req/s @16, a fresh connection's connect -> first byte p50 $(f "${R[conn.fresh.p50]}") ms, p99 $(f "${R[conn.fresh.p99]}") ms."
    echo
    echo "List beside FastAPI + asyncpg (uvicorn, uvloop, httptools, orjson; one worker; same statement; no authentication):"
    echo
    echo "| list | p50 ms | p99 ms | req/s @16 |"
    echo "|---|---|---|---|"
    echo "| erp run | $(f "${R[run.list.p50]}") | $(f "${R[run.list.p99]}") | $(n "${R[run.list.rps]}") |"
    echo "| erp gateway + serve | $(f "${R[split.list.p50]}") | $(f "${R[split.list.p99]}") | $(n "${R[split.list.rps]}") |"
    echo "| FastAPI + asyncpg | $(f "${R[py.list.p50]}") | $(f "${R[py.list.p99]}") | $(n "${R[py.list.rps]}") |"
    echo "| erp run / FastAPI | $(x "${R[run.list.p50]}" "${R[py.list.p50]}") | $(x "${R[run.list.p99]}" "${R[py.list.p99]}") | $(x "${R[run.list.rps]}" "${R[py.list.rps]}") |"
} | tee "$OUT/registers.md"
