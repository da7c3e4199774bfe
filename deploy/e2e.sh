#!/usr/bin/env bash
# Starts the product on a fresh database with demo data and runs the web client's
# browser journey (web/e2e) against it. Screenshots land in web/e2e/artifacts/.
# Usage: deploy/e2e.sh [port]
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PORT=${1:-8091}
ERP=${ERP_BIN:-${CARGO_TARGET_DIR:-$HOME/.cache/erp-target}/debug/erp}
BASE_URL=${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/erp}
DB=erp_e2e_$PORT  # per port: two runs on one machine keep apart
ADMIN_URL="${BASE_URL%/*}/postgres"
E2E_URL="${BASE_URL%/*}/$DB"
WORK=$(mktemp -d)

# The fake Nuvem Fiscal (services/fiscal's bin) when it is built: the journey then
# emits NF-e through it with the credentials it prints, and finds in its
# distribution two real NF-e (public test-suite files) issued against the demo
# company (11.222.333/0001-81), for the NF-e manifest.
FAKE=${FAKE_NUVEMFISCAL_BIN:-$(dirname "$ERP")/fake-nuvemfiscal}
FAKE_PORT=$((PORT + 1000))
FAKE_PID=
NF_ENV=()
if [ -x "$FAKE" ]; then
    "$FAKE" "127.0.0.1:$FAKE_PORT" 11222333000181 "$ROOT"/services/fiscal/tests/fixtures/nfe/*.xml \
        >"$WORK/fake-nuvemfiscal.log" 2>&1 &
    FAKE_PID=$!
    NF_ENV=(NUVEMFISCAL_CLIENT_ID=erp-demo NUVEMFISCAL_CLIENT_SECRET=erp-demo-secret
        NUVEMFISCAL_BASE_URL="http://127.0.0.1:$FAKE_PORT"
        NUVEMFISCAL_AUTH_URL="http://127.0.0.1:$FAKE_PORT/oauth/token")
    export E2E_NUVEMFISCAL=1
fi

psql -q -X "$ADMIN_URL" -c "DROP DATABASE IF EXISTS $DB WITH (FORCE)" -c "CREATE DATABASE $DB" >/dev/null
env -u NATS_URL -u REDIS_URL DATABASE_URL="$E2E_URL" ERP_HTTP_ADDR="127.0.0.1:$PORT" ERP_DATA_DIR="$WORK" \
    ERP_WEB_DIR="$ROOT/web/dist" "${NF_ENV[@]}" "$ERP" run --demo >"$WORK/erp.log" 2>&1 &
PID=$!
cleanup() {
    kill "$PID" 2>/dev/null || true
    wait "$PID" 2>/dev/null || true
    [ -z "$FAKE_PID" ] || kill "$FAKE_PID" 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT
# Ready once the demo is seeded (its logins are printed last, after the year of
# history that `make run` makes too).
for _ in $(seq 1 480); do
    if grep -q "Logins de demonstração" "$WORK/erp.log" 2>/dev/null; then break; fi
    if ! kill -0 "$PID" 2>/dev/null; then cat "$WORK/erp.log"; echo "e2e: server did not start"; exit 1; fi
    sleep 0.5
done
cd "$ROOT/web"
E2E_BASE_URL="http://127.0.0.1:$PORT" npm run e2e || { grep -v "^  " "$WORK/erp.log" | tail -n 30; exit 1; }
