# Shared by the `make bench` scripts (sourced after WORK, PORT, SECS and `say`
# are set): the servers a bench starts and stops, readiness, the demo login,
# and one wrk run parsed into "p50_ms p99_ms rps".

PIDS=()
stop_servers() {
    for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
    for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null || true; done
    PIDS=()
}
cleanup() { stop_servers; rm -rf "$WORK"; }
trap cleanup EXIT
ready() { # url (up to 5 minutes: a first start may migrate a large read model)
    for _ in $(seq 1 1200); do curl -fsS "$1" >/dev/null 2>&1 && return 0; sleep 0.25; done
    say "not ready: $1"; cat "$WORK"/*.log >&2; exit 1
}
login() {
    curl -fsS -X POST "http://127.0.0.1:$PORT/usuarios/sessions" -H 'content-type: application/json' \
        -d '{"cpfcnpj":"11.222.333/0001-81","usuario":"admin","senha":"admin123"}' | python3 -c 'import json,sys;print(json.load(sys.stdin)["token"])'
}
# wrk on core 1: one call, one connection count (60 s before a request times out).
run_wrk() { # method path body conns
    local lua="$WORK/req.lua"
    printf 'wrk.method = "%s"\nwrk.body = %s\nwrk.headers["content-type"] = "application/json"\nwrk.headers["authorization"] = "Bearer %s"\n' \
        "$1" "$(python3 -c 'import json,sys;print(json.dumps(sys.argv[1]))' "$3")" "$TOKEN" > "$lua"
    local threads=1; [ "$4" -gt 1 ] && threads=2
    taskset -c 1 wrk -t"$threads" -c"$4" -d"${SECS}s" --timeout 60s --latency -s "$lua" "http://127.0.0.1:$PORT$2" > "$WORK/wrk.txt"
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
