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

# Messaging: the fake WhatsApp providers (services/messaging's example) when built,
# and a real SMTP server (aiosmtpd) that keeps what it receives: the journey sends
# a slip by e-mail and by WhatsApp and reads both back.
FAKE_WA=${FAKE_WHATSAPP_BIN:-$(dirname "$ERP")/examples/fake_provider}
FAKE_WA_PID=
SMTP_PID=
MSG_ENV=()
if [ -x "$FAKE_WA" ]; then
    "$FAKE_WA" "127.0.0.1:0" >"$WORK/fake-whatsapp.log" 2>&1 &
    FAKE_WA_PID=$!
    for _ in $(seq 1 100); do grep -q "^cloud_url=" "$WORK/fake-whatsapp.log" 2>/dev/null && break; sleep 0.1; done
    export E2E_WHATSAPP_URL=$(sed -n 's/^cloud_url=//p' "$WORK/fake-whatsapp.log")
    export E2E_WHATSAPP_BENCH=$(sed -n 's/^bench_url=//p' "$WORK/fake-whatsapp.log")
fi
if python3 -c 'import aiosmtpd' 2>/dev/null; then
    SMTP_PORT=$((PORT + 1100))
    export E2E_SMTP_DIR="$WORK/smtp"
    python3 "$ROOT/deploy/smtp-sink.py" "$SMTP_PORT" "$E2E_SMTP_DIR" >"$WORK/smtp.log" 2>&1 &
    SMTP_PID=$!
    for _ in $(seq 1 100); do grep -q READY "$WORK/smtp.log" 2>/dev/null && break; sleep 0.1; done
    MSG_ENV=(ERP_SMTP_URL="smtp://127.0.0.1:$SMTP_PORT" ERP_SMTP_FROM="ERP Demo <financeiro@demo.example>")
fi

psql -q -X "$ADMIN_URL" -c "DROP DATABASE IF EXISTS $DB WITH (FORCE)" -c "CREATE DATABASE $DB" >/dev/null
env -u NATS_URL -u REDIS_URL DATABASE_URL="$E2E_URL" ERP_HTTP_ADDR="127.0.0.1:$PORT" ERP_DATA_DIR="$WORK" \
    ERP_WEB_DIR="$ROOT/web/dist" "${NF_ENV[@]}" "${MSG_ENV[@]}" "$ERP" run --demo >"$WORK/erp.log" 2>&1 &
PID=$!
cleanup() {
    kill "$PID" 2>/dev/null || true
    wait "$PID" 2>/dev/null || true
    [ -z "$FAKE_PID" ] || kill "$FAKE_PID" 2>/dev/null || true
    [ -z "$FAKE_WA_PID" ] || kill "$FAKE_WA_PID" 2>/dev/null || true
    [ -z "$SMTP_PID" ] || kill "$SMTP_PID" 2>/dev/null || true
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
