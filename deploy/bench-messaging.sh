#!/usr/bin/env bash
# `make bench`, messaging: the WhatsApp queue's enqueue and drain. The whole
# product runs (release build, `erp run --demo`, pinned to core 0) on a database
# and a NATS JetStream server of this script's own; its company 1 sends through
# the fake Cloud API (`fake_provider`, the example of erp-messaging with the
# feature `fake`); the load generators and the fake run on core 1. In one run:
#   - the floor: a bare INSERT of a row as wide as a message, committed
#     (autocommit: one round trip), into a scratch table, 16 pgbench connections
#     for BENCH_SECS (20) seconds: p50/p99 and tx/s;
#   - enqueue: `POST /whatsapp/send` (multipart, a text to 5554999876543) from
#     16 wrk connections for BENCH_SECS, the worker sending to the fake meanwhile:
#     req/s, p50/p99 and their ratio to the floor's; every answer must be a 200;
#     then the backlog left at the end of the load and the time it took to send;
#   - drain: the company's limit set to BENCH_LIMIT (600) messages a minute,
#     BENCH_DRAIN (300) messages queued, all due at the same instant: the sends/s
#     from the first to the last send the fake saw, against the limit, the most
#     sends in one clock minute (never above the limit: the worker counts per
#     clock minute) and in any 60 s. The limit is a budget per clock minute, not
#     a pace: fewer messages than the limit go out at the worker's speed, and
#     across a minute's end up to twice the limit fit in 60 s.
# Every queued message must be sent exactly once: as many 'E' rows as messages,
# as many sends at the fake, all different (each message's text is unique).
# The table is written to target/bench/messaging.md.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$HOME/.cache/erp-target}
ERP=${ERP_BIN:-$CARGO_TARGET_DIR/release/erp}
FAKE=${FAKE_PROVIDER_BIN:-$CARGO_TARGET_DIR/release/examples/fake_provider}
SECS=${BENCH_SECS:-20}
N=${BENCH_DRAIN:-300}
LIMIT=${BENCH_LIMIT:-600}
# Seconds between queueing the drain's first message and their due time.
LEAD=${BENCH_DRAIN_LEAD:-10}
PORT=${BENCH_PORT:-8095}
CONNS=16
BASE_URL=${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/erp}
DB=erp_bench_messaging
ADMIN_URL="${BASE_URL%/*}/postgres"
URL="${BASE_URL%/*}/$DB"
OUT="$ROOT/target/bench"
WORK=$(mktemp -d)
CLIENT=2
EMP=1
TO=5554999876543
PHONE_ID=bench-5554000
mkdir -p "$OUT"
command -v wrk >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null; }
command -v pgbench >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql-contrib >/dev/null; }
say() { printf 'bench-messaging: %s\n' "$*" >&2; }
. "$ROOT/deploy/bench/lib.sh"
sql() { psql -X -q -tA "$URL" -c "$1" | tail -1; }
now_ms() { date +%s%3N; }

if [ -z "${FAKE_PROVIDER_BIN:-}" ]; then
    say "building the fake provider"
    (cd "$ROOT" && cargo build --release -q -p erp-messaging --example fake_provider --features fake)
fi

psql -X -q "$ADMIN_URL" -c "DROP DATABASE IF EXISTS $DB WITH (FORCE)" -c "CREATE DATABASE $DB" >/dev/null
NATS_PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
NATS_BIN=$(command -v nats-server || echo /usr/sbin/nats-server)
"$NATS_BIN" -a 127.0.0.1 -p "$NATS_PORT" -js -sd "$WORK/nats" >/dev/null 2>&1 &
PIDS+=($!)
taskset -c 1 "$FAKE" 127.0.0.1:0 >"$WORK/fake.log" 2>&1 &
PIDS+=($!)
env -u REDIS_URL DATABASE_URL="$URL" NATS_URL="nats://127.0.0.1:$NATS_PORT" ERP_HTTP_ADDR="127.0.0.1:$PORT" \
    ERP_DATA_DIR="$WORK" ERP_WEB_DIR="$ROOT/web/dist" RUST_LOG=warn taskset -c 0 "$ERP" run --demo >"$WORK/erp.log" 2>&1 &
PIDS+=($!)
for _ in $(seq 1 100); do grep -q '^bench_url=' "$WORK/fake.log" && break; sleep 0.1; done
CLOUD_URL=$(sed -n 's/^cloud_url=//p' "$WORK/fake.log")
BENCH_URL=$(sed -n 's/^bench_url=//p' "$WORK/fake.log")
[ -n "$BENCH_URL" ] || { cat "$WORK/fake.log" >&2; say "the fake provider did not start"; exit 1; }
ready "http://127.0.0.1:$PORT/readyz"
TOKEN=$(login)
api() { # method path [json]: prints the answer, fails on anything but a 2xx
    local code
    code=$(curl -sS -o "$WORK/api.json" -w '%{http_code}' -X "$1" "http://127.0.0.1:$PORT$2" \
        -H "authorization: Bearer $TOKEN" -H 'content-type: application/json' ${3:+-d "$3"})
    case "$code" in 2*) cat "$WORK/api.json" ;; *) say "$1 $2: HTTP $code $(cat "$WORK/api.json")"; exit 1 ;; esac
}
fake() { curl -fsS "$@"; }
stats() { # python expression over the fake's stats `s`
    fake "$BENCH_URL/stats" | python3 -c "import json,sys; s=json.load(sys.stdin); print($1)"
}

# The company's provider: the fake Cloud API, no limit yet.
CFG='"WCFG_EMP_ID": '$EMP', "WCFG_PROVEDOR": "cloud", "WCFG_URL": "'$CLOUD_URL'", "WCFG_NUMERO_ID": "'$PHONE_ID'"'
WCFG_ID=$(api POST /whatsappconfig "{$CFG, \"WCFG_TOKEN\": \"token-do-bench\", \"WCFG_APP_SECRET\": \"segredo-do-bench\", \"WCFG_VERIFY_TOKEN\": \"verifica-do-bench\"}" \
    | python3 -c 'import json,sys; print(json.load(sys.stdin)["WCFG_ID"])')
# One message first: the route is there (an older binary answers 404) and it is sent.
code=$(curl -sS -o "$WORK/send.json" -w '%{http_code}' "http://127.0.0.1:$PORT/whatsapp/send" -H "authorization: Bearer $TOKEN" \
    -F MENS_EMP_ID=$EMP -F "MENS_DESCRICAO=Primeira mensagem do bench" -F MENS_DESTINATARIO=$TO -F MENS_TIPO=T \
    -F MENS_STATUS=N -F MENS_PROJETO=whatsapp -F MENS_PROGRAMA=BENCH-FIRST)
[ "$code" = 200 ] || { say "POST /whatsapp/send: HTTP $code $(cat "$WORK/send.json") ($ERP older than messaging in the gateway?)"; exit 1; }
for _ in $(seq 1 200); do [ "$(fake "$BENCH_URL/sends")" -ge 1 ] && break; sleep 0.05; done
[ "$(fake "$BENCH_URL/sends")" -eq 1 ] || { say "the first message was not sent: $(sql "SET app.client_id = '$CLIENT'; SELECT mens_status || ' ' || coalesce(mens_erro, '') FROM messaging.mensagens")"; exit 1; }

# Status counts of a program's messages: "total E others attempts".
counts() {
    sql "SET app.client_id = '$CLIENT';
SELECT count(*), count(*) FILTER (WHERE mens_status = 'E'), count(*) FILTER (WHERE mens_status <> 'E'), coalesce(sum(mens_tentativas), 0)
FROM messaging.mensagens WHERE client_id = $CLIENT AND mens_emp_id = $EMP AND mens_programa = '$1'" | tr '|' ' '
}
status_list() {
    sql "SET app.client_id = '$CLIENT';
SELECT string_agg(mens_status || '=' || n, ' ' ORDER BY mens_status) FROM (SELECT mens_status, count(*) n FROM messaging.mensagens
WHERE client_id = $CLIENT AND mens_emp_id = $EMP AND mens_programa = '$1' GROUP BY 1) t"
}
settle() { # program timeout_s: waits until every message of the program is sent
    local total sent other tries
    for _ in $(seq 1 $(($2 * 4))); do
        read -r total sent other tries <<< "$(counts "$1")"
        [ "$other" -eq 0 ] && [ "$(fake "$BENCH_URL/sends")" -ge "$((total + BASE_SENDS))" ] && return 0
        sleep 0.25
    done
    say "$1: not all sent in $2 s: $(status_list "$1"), fake: $(fake "$BENCH_URL/sends") sends"
    exit 1
}
exactly_once() { # program: the program's messages against the fake's window
    local total sent other tries w d
    read -r total sent other tries <<< "$(counts "$1")"
    w=$(stats 's["window"]["sends"]')
    d=$(stats 's["window"]["distinct"]')
    if [ "$sent" -ne "$total" ] || [ "$w" -ne "$total" ] || [ "$d" -ne "$total" ]; then
        say "$1: $total messages ($(status_list "$1")), $w sends at the fake, $d different: not exactly once"
        exit 1
    fi
    echo "$total $w $d $tries"
}

# --- the floor ------------------------------------------------------------------
say "floor: INSERT + commit, $CONNS connections, ${SECS}s"
sql "CREATE TABLE bench_floor (id bigserial PRIMARY KEY, client_id bigint NOT NULL, emp_id bigint NOT NULL, usr_id bigint,
    canal text NOT NULL, destinatario text NOT NULL, descricao text, datahora timestamptz NOT NULL, imediata boolean NOT NULL,
    projeto text, tipo text NOT NULL, status text NOT NULL, programa text, tentativas integer NOT NULL DEFAULT 0,
    dta_cad timestamptz NOT NULL DEFAULT now(), dta_alt timestamptz NOT NULL DEFAULT now())" >/dev/null
printf "INSERT INTO bench_floor (client_id, emp_id, usr_id, canal, destinatario, descricao, datahora, imediata, projeto, tipo, status, programa)
VALUES ($CLIENT, $EMP, 1, 'W', '$TO', 'Mensagem do bench ' || :client_id, now(), true, 'whatsapp', 'T', 'N', 'BENCH-FLOOR');\n" > "$WORK/floor.sql"
(cd "$WORK" && taskset -c 1 pgbench -n -M prepared -c $CONNS -j 2 -T "$SECS" -f floor.sql -l --log-prefix=pgbench_log "$URL" > pgbench.txt 2>&1) \
    || { cat "$WORK/pgbench.txt" >&2; exit 1; }
read -r f50 f99 ftps <<< "$(python3 - "$WORK" <<'PY'
import glob, re, sys
lat = sorted(int(l.split()[2]) / 1000.0 for f in glob.glob(sys.argv[1] + "/pgbench_log.*") for l in open(f))
tps = float(re.search(r"tps = ([\d.]+)", open(sys.argv[1] + "/pgbench.txt").read()).group(1))
q = lambda p: lat[min(len(lat) - 1, int(p * len(lat)))]
print(f"{q(0.50):.3f} {q(0.99):.3f} {tps:.1f}")
PY
)"

# --- enqueue under load, the queue draining meanwhile ---------------------------
say "enqueue: POST /whatsapp/send, $CONNS connections, ${SECS}s"
cat > "$WORK/send.lua" <<LUA
local counter = 0
function setup(thread)
  thread:set("tid", counter)
  counter = counter + 1
end
function init(args)
  n = 0
end
local boundary = "erp-bench-7MA4YWxkTrZu0gW"
local headers = {["authorization"] = "Bearer $TOKEN", ["content-type"] = "multipart/form-data; boundary=" .. boundary}
local function part(name, value)
  return "--" .. boundary .. "\r\nContent-Disposition: form-data; name=\"" .. name .. "\"\r\n\r\n" .. value .. "\r\n"
end
function request()
  n = n + 1
  local body = part("MENS_EMP_ID", "$EMP") .. part("MENS_DESCRICAO", "Mensagem do bench " .. tid .. "-" .. n)
    .. part("MENS_DESTINATARIO", "$TO") .. part("MENS_TIPO", "T") .. part("MENS_STATUS", "N")
    .. part("MENS_PROJETO", "whatsapp") .. part("MENS_PROGRAMA", "BENCH-LOAD") .. "--" .. boundary .. "--\r\n"
  return wrk.format("POST", "/whatsapp/send", headers, body)
end
LUA
BASE_SENDS=$(fake -X POST "$BENCH_URL/mark")
taskset -c 1 wrk -t2 -c$CONNS -d"${SECS}s" --timeout 60s --latency -s "$WORK/send.lua" "http://127.0.0.1:$PORT" > "$WORK/wrk.txt"
load_end=$(now_ms)
sent_in_load=$(( $(fake "$BENCH_URL/sends") - BASE_SENDS ))
read -r e50 e99 erps ereqs enon2xx esock <<< "$(python3 - "$WORK/wrk.txt" <<'PY'
import re, sys
t = open(sys.argv[1]).read()
def ms(v, u): return float(v) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[u]
lat = {m.group(1): ms(m.group(2), m.group(3)) for m in re.finditer(r"^\s+(\d+)%\s+([\d.]+)(us|ms|s)\s*$", t, re.M)}
rps = float(re.search(r"Requests/sec:\s+([\d.]+)", t).group(1))
reqs = int(re.search(r"(\d+) requests in", t).group(1))
non2xx = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", t)
sock = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", t)
print(f"{lat['50']:.3f} {lat['99']:.3f} {rps:.1f} {reqs} {int(non2xx.group(1)) if non2xx else 0} {sum(map(int, sock.groups())) if sock else 0}")
PY
)"
if [ "$enon2xx" -ne 0 ] || [ "$esock" -ne 0 ]; then
    cat "$WORK/wrk.txt" >&2
    say "enqueue: $enon2xx answers other than 2xx, $esock socket errors in $ereqs requests"
    tail -20 "$WORK/erp.log" >&2
    exit 1
fi
# A request wrk gave up on at its end may still commit: the counts are read again.
settle BENCH-LOAD 600
read -r l_msgs l_sends l_distinct l_tries <<< "$(exactly_once BENCH-LOAD)"
backlog=$((l_msgs - sent_in_load))
l_last=$(stats 's["window"]["last_ms"]')
l_drain=$(python3 -c "print(f'{max(0, $l_last - $load_end) / 1000:.1f}')")

# --- drain at the company's limit -----------------------------------------------
say "drain: $N messages due at once, limit $LIMIT a minute"
api PUT "/whatsappconfig/$WCFG_ID/$EMP" "{\"WCFG_ID\": $WCFG_ID, $CFG, \"WCFG_LIMITE_MINUTO\": $LIMIT}" >/dev/null
BASE_SENDS=$(fake -X POST "$BENCH_URL/mark")
read -r due_ms queued_ms <<< "$(taskset -c 1 python3 - "$PORT" "$TOKEN" "$EMP" "$TO" "$N" "$LEAD" <<'PY'
import http.client, sys, time
from datetime import datetime, timezone
port, token, emp, to, n, lead = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]), float(sys.argv[6])
due = time.time() + lead
at = datetime.fromtimestamp(due, timezone.utc).isoformat(timespec="milliseconds")
b = "erp-bench-7MA4YWxkTrZu0gW"
c = http.client.HTTPConnection("127.0.0.1", int(port))
headers = {"authorization": f"Bearer {token}", "content-type": f"multipart/form-data; boundary={b}"}
for i in range(1, n + 1):
    fields = {"MENS_EMP_ID": emp, "MENS_DESCRICAO": f"Mensagem do bench, fila {i}", "MENS_DESTINATARIO": to,
              "MENS_DATAHORA": at, "MENS_TIPO": "T", "MENS_STATUS": "N", "MENS_PROJETO": "whatsapp",
              "MENS_PROGRAMA": "BENCH-DRAIN"}
    body = "".join(f'--{b}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n' for k, v in fields.items()) + f"--{b}--\r\n"
    c.request("POST", "/whatsapp/send", body.encode(), headers)
    r = c.getresponse(); answer = r.read()
    if r.status != 200:
        sys.exit(f"drain: message {i}: HTTP {r.status} {answer[:300]!r}")
queued = time.time()
if queued >= due:
    sys.exit(f"drain: queueing took {queued - due + lead:.1f} s, past the due time (raise BENCH_DRAIN_LEAD)")
print(int(due * 1000), int(queued * 1000))
PY
)"
[ "$(fake "$BENCH_URL/sends")" -eq "$BASE_SENDS" ] || { say "drain: messages were sent before their due time"; exit 1; }
settle BENCH-DRAIN $((N * 60 * 3 / LIMIT + 120))
read -r d_msgs d_sends d_distinct d_tries <<< "$(exactly_once BENCH-DRAIN)"
read -r d_first d_last d_minute d_60s <<< "$(stats '" ".join(str(s["window"][k]) for k in ("first_ms", "last_ms", "max_per_minute", "max_per_60s"))')"
# (The worker takes a send's slot just before the send: one taken at the end of a
# minute may reach the fake in the next, so this is a warning, not a failure.)
[ "$d_minute" -le "$LIMIT" ] || say "warning: drain: $d_minute sends in one clock minute at the fake, above the limit of $LIMIT"
read -r d_span d_rate d_ratio d_start <<< "$(python3 -c "
span = max($d_last - $d_first, 1) / 1000
rate = ($d_sends - 1) / span if $d_sends > 1 else 0
print(f'{span:.2f} {rate:.1f} {rate / ($LIMIT / 60):.2f} {($d_first - $due_ms) / 1000:.2f}')")"

ratio() { python3 -c "print(f'{$1 / $2:.1f}')"; }
{
    echo "# Messaging: enqueue and drain ($(date -u +%F); server on core 0, load and fake provider on core 1; ${SECS}s at $CONNS connections)"
    echo
    echo "| measure | value |"
    echo "|---|---|"
    echo "| floor: INSERT of a message-wide row + commit (pgbench, $CONNS connections) p50 / p99, tx/s | ${f50} ms / ${f99} ms, ${ftps} |"
    echo "| enqueue: POST /whatsapp/send (multipart text, wrk $CONNS connections) req/s | ${erps} (${ereqs} answers, all 200) |"
    echo "| enqueue: p50 / p99 | ${e50} ms / ${e99} ms |"
    echo "| enqueue: ratio to the floor, p50 / p99 | $(ratio "$e50" "$f50")x / $(ratio "$e99" "$f99")x |"
    echo "| enqueue: req/s as a share of the floor's tx/s | $(python3 -c "print(f'{100 * $erps / $ftps:.0f}')") % |"
    echo "| queue during the load: sent while loading (/s), backlog at the end of the load | ${sent_in_load} ($(python3 -c "print(f'{$sent_in_load / $SECS:.1f}')")/s), ${backlog} messages |"
    echo "| queue: end of the load -> last send (backlog sent) | ${l_drain} s |"
    echo "| queue: messages 'E' / sends at the fake / different / attempts | ${l_msgs} / ${l_sends} / ${l_distinct} / ${l_tries} |"
    echo "| drain: $N messages due at once, limit $LIMIT/min ($(python3 -c "print(f'{$LIMIT / 60:g}')")/s): sends/s first -> last send (span) | ${d_rate} (${d_span} s) |"
    echo "| drain: ratio to the limit | ${d_ratio}x |"
    echo "| drain: most sends in one clock minute / in any 60 s | ${d_minute} / ${d_60s} (limit ${LIMIT}) |"
    echo "| drain: due time -> first send | ${d_start} s |"
    echo "| drain: messages 'E' / sends at the fake / different / attempts | ${d_msgs} / ${d_sends} / ${d_distinct} / ${d_tries} |"
} | tee "$OUT/messaging.md"
