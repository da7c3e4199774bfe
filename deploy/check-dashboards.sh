#!/usr/bin/env bash
# Every panel of the Grafana dashboards against a real Prometheus scraping a
# busy server: `erp run --demo` on a fresh database, the fake Nuvem Fiscal when
# it is built (NF-e authorised and cancelled), Prometheus with a copy of
# deploy/prometheus/prometheus.yml (and the alerting rules) scraping it every
# 5 s; then some traffic (logins, failed logins, register lists, orders created,
# invoiced and their NF-e issued, some cancelled, one rejected, slips generated
# and some paid, receivables settled, some settlements reversed), then each panel's queries through the Prometheus HTTP
# API with the dashboard's variables set to everything ($__range: 1h and 1m,
# $__rate_interval: 1m). Prints one line per panel: data or not, and values.
# Also checks that every alerting rule evaluates without error on real series.
#
# A panel without data fails the run, unless its description says it waits for
# an area ("Sem dados até ..."). Not part of `make test` (needs the binaries
# and takes a few minutes).
#
# Usage: deploy/check-dashboards.sh [dashboard.json ...]
#   (default deploy/grafana/dashboards/business.json)
# Env: ERP_PORT (8097), PROM_PORT (9091: not 9090, the services' admin port),
#      FAKE_PORT (ERP_PORT + 1000), ERP_CHECK_DB (erp_ops), ERP_BIN, FAKE_NUVEMFISCAL_BIN,
#      DATABASE_URL (its server: postgres://postgres@127.0.0.1:5432/...),
#      ERP_DEMO_HISTORY (0: the year of demo history is not seeded), CYCLES (8).
# Build first: cargo build -p erp --bin erp && cargo build -p erp-fiscal --features fake --bin fake-nuvemfiscal
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PORT=${ERP_PORT:-8097}
PROM_PORT=${PROM_PORT:-9091}
FAKE_PORT=${FAKE_PORT:-$((PORT + 1000))}
DB=${ERP_CHECK_DB:-erp_ops}
TARGET=${CARGO_TARGET_DIR:-$HOME/.cache/erp-target}
ERP=${ERP_BIN:-$TARGET/debug/erp}
FAKE=${FAKE_NUVEMFISCAL_BIN:-$TARGET/debug/fake-nuvemfiscal}
BASE_URL=${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/erp}
ADMIN_URL="${BASE_URL%/*}/postgres"
RUN_URL="${BASE_URL%/*}/$DB"
DASHBOARDS=("$@")
[ "${#DASHBOARDS[@]}" -gt 0 ] || DASHBOARDS=("$ROOT/deploy/grafana/dashboards/business.json")
say() { printf 'check-dashboards: %s\n' "$*"; }

[ -x "$ERP" ] || { say "no $ERP: cargo build -p erp --bin erp"; exit 1; }
if ! command -v prometheus >/dev/null 2>&1; then
    [ "$(id -u)" -eq 0 ] || { say "prometheus is missing (Debian package prometheus)"; exit 1; }
    say "installing Debian package prometheus"
    apt-get update -qq >/dev/null
    policy=/usr/sbin/policy-rc.d
    had_policy=0
    [ -e "$policy" ] && had_policy=1
    # No service start during the install: it would take port 9090.
    if [ "$had_policy" -eq 0 ]; then printf '#!/bin/sh\nexit 101\n' >"$policy" && chmod +x "$policy"; fi
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends prometheus >/dev/null || true
    if [ "$had_policy" -eq 0 ]; then rm -f "$policy"; fi
    service prometheus stop >/dev/null 2>&1 || true
fi
python3 -c 'import yaml' 2>/dev/null || { say "python3-yaml is missing"; exit 1; }
for p in "$PORT" "$PROM_PORT" "$FAKE_PORT"; do
    if (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then say "port $p is taken"; exit 1; fi
done

WORK=$(mktemp -d)
PIDS=()
cleanup() {
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
    rm -rf "$WORK"
}
trap cleanup EXIT

psql -q -X "$ADMIN_URL" -c "DROP DATABASE IF EXISTS $DB WITH (FORCE)" -c "CREATE DATABASE $DB" >/dev/null 2>&1
NF_ENV=()
if [ -x "$FAKE" ]; then
    "$FAKE" "127.0.0.1:$FAKE_PORT" 11222333000181 "$ROOT"/services/fiscal/tests/fixtures/nfe/*.xml \
        >"$WORK/fake.log" 2>&1 &
    PIDS+=($!)
    NF_ENV=(NUVEMFISCAL_CLIENT_ID=erp-demo NUVEMFISCAL_CLIENT_SECRET=erp-demo-secret
        NUVEMFISCAL_BASE_URL="http://127.0.0.1:$FAKE_PORT"
        NUVEMFISCAL_AUTH_URL="http://127.0.0.1:$FAKE_PORT/oauth/token")
else
    say "no fake Nuvem Fiscal ($FAKE): no NF-e will be issued (cargo build -p erp-fiscal --features fake --bin fake-nuvemfiscal)"
fi

# Prometheus: the dev configuration, scraping this server only, every 5 s.
python3 - "$ROOT/deploy/prometheus/prometheus.yml" "$WORK/prometheus.yml" "127.0.0.1:$PORT" <<'PY'
import sys, yaml
cfg = yaml.safe_load(open(sys.argv[1]))
cfg["global"]["scrape_interval"] = "5s"
cfg["global"]["evaluation_interval"] = "5s"
jobs = [j for j in cfg["scrape_configs"] if j["job_name"] == "erp-gateway"]
jobs[0]["static_configs"][0]["targets"] = [sys.argv[3]]
cfg["scrape_configs"] = jobs
yaml.safe_dump(cfg, open(sys.argv[2], "w"), sort_keys=False)
PY
cp "$ROOT/deploy/prometheus/alerts.yml" "$WORK/alerts.yml"
prometheus --config.file="$WORK/prometheus.yml" --storage.tsdb.path="$WORK/tsdb" \
    --web.listen-address="127.0.0.1:$PROM_PORT" >"$WORK/prometheus.log" 2>&1 &
PIDS+=($!)

say "starting erp run --demo on :$PORT (database $DB)"
env -u NATS_URL -u REDIS_URL "${NF_ENV[@]}" DATABASE_URL="$RUN_URL" ERP_HTTP_ADDR="127.0.0.1:$PORT" \
    ERP_DATA_DIR="$WORK/data" ERP_WEB_DIR="$ROOT/web/dist" ERP_LOGIN_MAX_FAILURES=1000000 RUST_LOG=warn \
    "$ERP" run --demo >"$WORK/erp.log" 2>&1 &
ERP_PID=$!
PIDS+=("$ERP_PID")
# The demo logins are printed once the demo data (and its history) is in.
for _ in $(seq 1 900); do
    grep -q 'Logins de demonstração' "$WORK/erp.log" && break
    if ! kill -0 "$ERP_PID" 2>/dev/null; then tail -n 30 "$WORK/erp.log"; say "the server stopped"; exit 1; fi
    sleep 1
done
grep -q 'Logins de demonstração' "$WORK/erp.log" || { tail -n 30 "$WORK/erp.log"; say "no demo after 15 min"; exit 1; }
grep -a 'Histórico de demonstração' "$WORK/erp.log" | sed 's/^/check-dashboards: /' || true
curl -fsS "http://127.0.0.1:$PROM_PORT/-/ready" >/dev/null || { cat "$WORK/prometheus.log"; say "prometheus is not ready"; exit 1; }

python3 - "http://127.0.0.1:$PORT" "http://127.0.0.1:$PROM_PORT" "${#NF_ENV[@]}" "${CYCLES:-8}" \
    "${DASHBOARDS[@]}" <<'PY'
import json, re, sys, time, urllib.parse, urllib.request
from datetime import date

erp, prom, fiscal, cycles, dashboards = sys.argv[1], sys.argv[2], sys.argv[3] != "0", int(sys.argv[4]), sys.argv[5:]
token = None

def call(method, path, body=None, auth=True):
    data = None if body is None else json.dumps(body).encode()
    headers = {"content-type": "application/json"}
    if auth:
        headers["authorization"] = "Bearer " + token
    req = urllib.request.Request(erp + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            text = r.read().decode()
            return r.status, (json.loads(text) if text else None)
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()[:300]

def login(password):
    return call("POST", "/usuarios/sessions",
                {"cpfcnpj": "11.222.333/0001-81", "usuario": "admin", "senha": password}, auth=False)

def gql(query, variables):
    s, r = call("POST", "/graphql", {"query": query, "variables": variables})
    if s != 200 or r.get("errors"):
        raise SystemExit(f"graphql: {s} {r}")
    return r["data"]

def must(what, result, ok=(200,)):
    s, r = result
    if s not in ok:
        raise SystemExit(f"{what}: HTTP {s} {r}")
    return r

# Traffic: each cycle logs in (and fails to), lists registers, creates and
# invoices an order, issues its NF-e (cancelling every other one), settles the
# order's receivables (reversing every third settlement).
s, r = login("admin123")
token = r["token"]
today = date.today().isoformat()
made = {"orders": 0, "nfe": 0, "cancelled": 0, "rejected": 0, "slips": 0, "slips paid": 0, "settled": 0, "reversed": 0}
slip_bank = None

def order_of(product, qty):
    order = gql('mutation($d: JSON!) { resourceCreate(name: "pedido", emp: 1, data: $d) }',
                {"d": {"PEDF_SERIE": "1", "PEDF_CLI_ID": 1, "PEDF_DTA_EMISSAO": today}})["resourceCreate"]["PEDF_ID"]
    gql('mutation($d: JSON!) { resourceCreate(name: "pedidoproduto", emp: 1, data: $d) }',
        {"d": {"PEDI_PEDF_ID": order, "PEDI_PEDF_SERIE_ID": "1", "PEDI_PROD_ID": product, "PEDI_QTDE": str(qty)}})
    must("faturar", call("PUT", f"/pedidogenerator/{order}/1/1", {}))
    return order

def emit(order):
    # Fiscal knows the order once it applied the invoice's fact.
    for _ in range(60):
        emitted = call("POST", "/pedidofatxml", {"PEXM_PEDF_ID": order, "PEXM_EMP_ID": 1, "PEXM_SERIE": "1"})
        if emitted[0] != 404:
            return emitted
        time.sleep(0.5)
    return emitted

if fiscal:
    # One NF-e the SEFAZ rejects: the fake refuses an item of NCM 00000000 (cStat 778).
    ncm = gql('query { resourceGet(name: "produtos", emp: 1, id: 3) }', {})["resourceGet"].get("PROD_NCM")
    set_ncm = 'mutation($d: JSON!) { resourceUpdate(name: "produtos", emp: 1, id: 3, data: $d) }'
    gql(set_ncm, {"d": {"PROD_NCM": "00000000"}})
    try:
        s, r = emit(order_of(3, 1))
        if "rejeit" not in json.dumps(r).lower():
            raise SystemExit(f"the NF-e of NCM 00000000 was not rejected: HTTP {s} {r}")
        made["rejected"] += 1
    finally:
        gql(set_ncm, {"d": {"PROD_NCM": ncm}})
for i in range(cycles):
    started = time.time()
    login("senha-errada")
    login("admin123")
    for path in ("/clientes/filtro", "/produtos/filtro", "/contasreceber/filtro"):
        call("POST", path, {"EMP_ID": 1, "LIMIT": 20})
    call("GET", "/clientes/pesquisar/a/1")
    order = order_of(2, 1 + i % 3)
    made["orders"] += 1
    if fiscal:
        nfe = must("emitir NF-e", emit(order))
        made["nfe"] += 1
        if i % 2 == 1:
            must("cancelar NF-e", call("POST", f"/pedidofatxml/cancelar/{nfe['PEXM_ID']}/1",
                                       {"JUSTIFICATIVA": "Cancelamento de teste do painel de negocio"}))
            made["cancelled"] += 1
    # The order's receivables appear once finance applied the invoice.
    titles = []
    for _ in range(40):
        s, rows = call("POST", "/contasreceber/filtro", {"EMP_ID": 1, "CRCB_PEDF_ID": order, "LIMIT": 10})
        titles = [t["CRCB_ID"] for t in (rows or []) if isinstance(rows, list) and t.get("CRCB_SITUACAO") == "A"]
        if titles:
            break
        time.sleep(0.5)
    # A slip for the first receivable, on the first account that makes slips;
    # every other one paid by its payer (the rest settled on the screen).
    if titles:
        if slip_bank is None:
            s, banks = call("POST", "/banco/filtro", {"EMP_ID": 1, "LIMIT": 50})
            for b in (banks if isinstance(banks, list) else []):
                s, slip = call("POST", "/boletos/gerar", {"EMP_ID": 1, "BCO_ID": b["BCO_ID"], "TITULOS": titles[:1]})
                if s == 200:
                    slip_bank = b["BCO_ID"]
                    break
        else:
            slip = must("gerar boleto", call("POST", "/boletos/gerar", {"EMP_ID": 1, "BCO_ID": slip_bank, "TITULOS": titles[:1]}))
        if slip_bank is not None:
            made["slips"] += 1
            if i % 2 == 0:
                must("boleto pago", call("PATCH", "/boletos/baixa", {"EMP_ID": 1, "BOL_ID": slip[0]["BOL_ID"], "TIPO": "PAGO"}))
                made["slips paid"] += 1
                titles = titles[1:]
    if titles:
        done = must("baixa", call("POST", "/contasreceber/baixa/1", {"TITULOS": titles, "BCO_ID": 1}))
        made["settled"] += len(titles)
        if i % 3 == 2:
            must("estorno", call("PUT", f"/contasreceber/estorno/{done['baixas'][0]['BAIX_ID']}/1", {}))
            made["reversed"] += 1
    time.sleep(max(0.0, 10 - (time.time() - started)))
print("check-dashboards: traffic:", ", ".join(f"{v} {k}" for k, v in made.items()))
time.sleep(12)  # two scrapes and two rule evaluations

def query(expr, rng):
    params = {"query": expr}
    path = "/api/v1/query"
    if rng:
        end = time.time()
        params.update({"start": end - 180, "end": end, "step": "15"})
        path = "/api/v1/query_range"
    with urllib.request.urlopen(prom + path + "?" + urllib.parse.urlencode(params), timeout=30) as r:
        body = json.load(r)
    if body.get("status") != "success":
        raise RuntimeError(body)
    return body["data"]["result"]

def fill(expr, rng):
    for k, v in {"$__rate_interval": "1m", "$__range": rng, "$__interval": "15s"}.items():
        expr = expr.replace(k, v)
    return re.sub(r"\$\{?(\w+)\}?", ".*", expr)

def fmt(v):
    v = float(v)
    return f"{v:.0f}" if v == int(v) else f"{v:.2f}"

failed = 0
rows = 0
for path in dashboards:
    dash = json.load(open(path))
    name = path.rsplit("/", 1)[-1]
    for p in dash["panels"]:
        if p["type"] == "row":
            continue
        rows += 1
        awaiting = "Sem dados até" in (p.get("description") or "")
        found, notes = True, []
        for t in p.get("targets", []):
            instant = t.get("instant") and not t.get("range")
            if instant:
                vals = []
                for rng in ("1h", "1m"):
                    res = query(fill(t["expr"], rng), False)
                    vals.append(("/".join(fmt(x["value"][1]) for x in res[:4])) or "-")
                    found = found and bool(res)
                notes.append(f"{t['refId']}: {vals[0]} (1h) {vals[1]} (1m)")
            else:
                res = query(fill(t["expr"], "1h"), True)
                last = [fmt(x["values"][-1][1]) for x in res if x["values"]][:4]
                found = found and bool(res)
                notes.append(f"{t['refId']}: {len(res)} series, last {'/'.join(last) or '-'}")
        verdict = "data   " if found else ("waiting" if awaiting else "NO DATA")
        if not found and not awaiting:
            failed += 1
        print(f"{verdict} {name} #{p['id']} {p['title']}: {'; '.join(notes)}")

with urllib.request.urlopen(prom + "/api/v1/rules", timeout=30) as r:
    groups = json.load(r)["data"]["groups"]
bad = [(x["name"], x.get("lastError")) for g in groups for x in g["rules"] if x.get("health") != "ok"]
firing = [x["name"] for g in groups for x in g["rules"] if x.get("state") in ("pending", "firing")]
nrules = sum(len(g["rules"]) for g in groups)
print(f"check-dashboards: {nrules} alerting rules evaluated, {len(bad)} with errors; pending or firing: {', '.join(firing) or 'none'}")
for name, err in bad:
    print(f"check-dashboards: rule {name}: {err}")
print(f"{rows - failed} panels with data or waiting for their area, {failed} without data" + (", rule errors" if bad else ""))
sys.exit(1 if failed or bad else 0)
PY
