#!/usr/bin/env bash
# Starts the product on a fresh database with demo data and runs the web client's
# browser journey (web/e2e) against it. Screenshots land in web/e2e/artifacts/.
# Usage: deploy/e2e.sh [port]
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PORT=${1:-8091}
ERP=${ERP_BIN:-${CARGO_TARGET_DIR:-$HOME/.cache/erp-target}/debug/erp}
BASE_URL=${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/erp}
DB=erp_e2e
ADMIN_URL="${BASE_URL%/*}/postgres"
E2E_URL="${BASE_URL%/*}/$DB"
WORK=$(mktemp -d)

psql -q -X "$ADMIN_URL" -c "DROP DATABASE IF EXISTS $DB WITH (FORCE)" -c "CREATE DATABASE $DB" >/dev/null
env -u NATS_URL -u REDIS_URL DATABASE_URL="$E2E_URL" ERP_HTTP_ADDR="127.0.0.1:$PORT" ERP_DATA_DIR="$WORK" \
    ERP_WEB_DIR="$ROOT/web/dist" "$ERP" run --demo >"$WORK/erp.log" 2>&1 &
PID=$!
cleanup() { kill "$PID" 2>/dev/null || true; wait "$PID" 2>/dev/null || true; rm -rf "$WORK"; }
trap cleanup EXIT
for _ in $(seq 1 120); do
    if curl -fsS "http://127.0.0.1:$PORT/readyz" >/dev/null 2>&1; then break; fi
    if ! kill -0 "$PID" 2>/dev/null; then cat "$WORK/erp.log"; echo "e2e: server did not start"; exit 1; fi
    sleep 0.5
done
cd "$ROOT/web"
E2E_BASE_URL="http://127.0.0.1:$PORT" npm run e2e || { grep -v "^  " "$WORK/erp.log" | tail -n 30; exit 1; }
