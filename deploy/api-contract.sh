#!/usr/bin/env bash
# The API contract, checked by schemathesis (PyPI) against a running server: every
# operation of /openapi.json is called with generated data (examples, boundary
# values, fuzzing; a bounded number of examples each), and every answer must not
# be a server error (not_a_server_error) and must match the schema documented for
# its status (response_schema_conformance). A request may take up to 60 s
# (a loaded CI machine): speed is the benchmarks' business, not this check's.
# For the same reason the generator's own "too slow" health check (how fast it
# makes data, timed on a busy 2-core machine) is off: it says nothing of the API.
# One worker: with two threads, Python 3.11's `ast` (hypothesis parses the source
# of its filters to describe them) fails now and then with "AST constructor
# recursion depth mismatch", a runtime error of the generator, not of the API
# (seen once in CI, reproduced on a loaded machine); the generator is CPU-bound
# under the GIL, so one worker is also faster here (212 s against 243 s).
#
# The server runs on a fresh database with the demo data, as the demo admin.
# Operations that would end the session or take the caller's own access away
# while the run goes on (logout; writes to users, their groups and program
# grants) are left out; the run ends by checking that the token still works.
#
# Before it, the NF-e preview of the demo's billing order (invoiced through the
# API) is validated against the Nuvem Fiscal's `NfePedidoEmissao` by an
# independent validator (deploy/nfe_preview_check.py, openapi-schema-validator).
# Usage: deploy/api-contract.sh [port]
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PORT=${1:-8093}
ERP=${ERP_BIN:-${CARGO_TARGET_DIR:-$HOME/.cache/erp-target}/debug/erp}
BASE_URL=${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/erp}
DB=erp_api_$PORT  # per port: two runs on one machine keep apart
ADMIN_URL="${BASE_URL%/*}/postgres"
API_URL="${BASE_URL%/*}/$DB"
VENV="${XDG_CACHE_HOME:-$HOME/.cache}/erp-st-venv"
OAS_VENV="${XDG_CACHE_HOME:-$HOME/.cache}/erp-oas-venv"
EXAMPLES=${API_EXAMPLES:-3}
WORK=$(mktemp -d)

venv() {
    python3 -m venv "$1" 2>/dev/null \
        || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null && python3 -m venv "$1"; }
}
if [ ! -x "$VENV/bin/st" ]; then
    venv "$VENV"
    "$VENV/bin/pip" install -q 'schemathesis>=4.3,<5'
fi
if ! "$OAS_VENV/bin/python" -c 'import openapi_schema_validator, yaml' 2>/dev/null; then
    venv "$OAS_VENV"
    "$OAS_VENV/bin/pip" install -q 'openapi-schema-validator>=0.9,<0.10' 'pyyaml>=6,<7'
fi

psql -q -X "$ADMIN_URL" -c "DROP DATABASE IF EXISTS $DB WITH (FORCE)" -c "CREATE DATABASE $DB" >/dev/null
# The demo registers and documents, without the year of history (ERP_DEMO_HISTORY=0):
# the contract is about shapes, and the history's minute of seeding buys it nothing.
env -u NATS_URL -u REDIS_URL ERP_DEMO_HISTORY=0 DATABASE_URL="$API_URL" ERP_HTTP_ADDR="127.0.0.1:$PORT" ERP_DATA_DIR="$WORK" \
    ERP_WEB_DIR="$ROOT/web/dist" ERP_LOGIN_MAX_FAILURES=1000000 RUST_LOG=warn "$ERP" run --demo >"$WORK/erp.log" 2>&1 &
PID=$!
cleanup() { kill "$PID" 2>/dev/null || true; wait "$PID" 2>/dev/null || true; rm -rf "$WORK"; }
trap cleanup EXIT
for _ in $(seq 1 120); do
    if curl -fsS "http://127.0.0.1:$PORT/readyz" >/dev/null 2>&1; then break; fi
    if ! kill -0 "$PID" 2>/dev/null; then cat "$WORK/erp.log"; echo "api: server did not start"; exit 1; fi
    sleep 0.5
done
TOKEN=$(curl -fsS -X POST "http://127.0.0.1:$PORT/usuarios/sessions" -H 'content-type: application/json' \
    -d '{"cpfcnpj":"11.222.333/0001-81","usuario":"admin","senha":"admin123"}' | python3 -c 'import json,sys;print(json.load(sys.stdin)["token"])')
ops=$(curl -fsS "http://127.0.0.1:$PORT/openapi.json" | python3 -c 'import json,sys; p=json.load(sys.stdin)["paths"]; print(sum(len(v) for v in p.values()))')
echo "api: $ops operations in openapi.json, $EXAMPLES examples each"

# First, while the demo data is as seeded: the NF-e preview, independently validated.
"$OAS_VENV/bin/python" "$ROOT/deploy/nfe_preview_check.py" "http://127.0.0.1:$PORT" "$TOKEN" \
    "$ROOT/services/fiscal/tests/fixtures/nuvemfiscal-openapi-2.58.yaml" \
    || { grep -E "ERROR" "$WORK/erp.log" | tail -n 20; echo "api: the NF-e preview is not valid against NfePedidoEmissao"; exit 1; }

status=0
"$VENV/bin/st" run "http://127.0.0.1:$PORT/openapi.json" \
    --checks not_a_server_error,response_schema_conformance \
    --max-examples "$EXAMPLES" --seed 20261124 --workers 1 \
    --phases examples,coverage,fuzzing \
    --header "Authorization: Bearer $TOKEN" \
    --exclude-path-regex '^/usuarios/logout$' \
    --exclude-path-regex '^/(usuarios|programasusuario|subgrupousuario|grupousuario)(/|$)' \
    --request-timeout 60 --no-color --output-truncate true \
    --suppress-health-check too_slow \
    --report junit --report-dir "$ROOT/target/api-contract" 2>&1 | tee "$WORK/st.log" || status=$?

code=$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $TOKEN" "http://127.0.0.1:$PORT/programasusuario/montamenu/1")
if [ "$code" != 200 ]; then echo "api: the run's token no longer works (HTTP $code): the run was not meaningful"; status=1; fi
if grep -q "panicked" "$WORK/erp.log"; then grep -B2 -A8 "panicked" "$WORK/erp.log" | head -40; status=1; fi
if [ "$status" -ne 0 ]; then
    grep -E "ERROR" "$WORK/erp.log" | tail -n 20
    # What failed, last, where a truncated log still shows it: each failing or
    # erroring operation of the run's JUnit report with its first lines.
    latest=$(ls -t "$ROOT"/target/api-contract/junit-*.xml 2>/dev/null | head -n 1)
    [ -n "$latest" ] && python3 - "$latest" <<'PY'
import sys, xml.etree.ElementTree as ET
for case in ET.parse(sys.argv[1]).iter("testcase"):
    for bad in list(case.findall("failure")) + list(case.findall("error")):
        text = (bad.get("message") or "") + "\n" + (bad.text or "")
        print(f"api: {bad.tag} in {case.get('name')}:")
        print("\n".join("    " + l for l in text.strip().splitlines()[:12]))
PY
    # And schemathesis's own account of its errors (a runtime error has no test
    # case in the JUnit report), so that the tail of a long log still says why.
    awk '/^=+ ERRORS =+$/{on=1} /^=+ (WARNINGS|SUMMARY) =+$/{on=0} on' "$WORK/st.log" | head -n 60
    exit "$status"
fi
echo "api: contract holds"
