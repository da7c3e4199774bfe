#!/usr/bin/env bash
# Make sure a NATS server with JetStream answers on 127.0.0.1:${NATS_PORT:-4222}.
# Idempotent; prints nothing when one is already up.
#
# When nothing answers, starts nats-server in the background:
#   nats-server -a 127.0.0.1 -p PORT -js -sd ${ERP_DATA_DIR:-./data}/nats/jetstream
# (log and pid file beside it), installing Debian's nats-server first when it
# is missing and we are root. Fails when the server that answers has no
# JetStream (microservices mode needs it).
#
# Env: NATS_PORT (4222), ERP_DATA_DIR (./data). Stop the one started here
# with: kill "$(cat "$ERP_DATA_DIR/nats/nats.pid")"
set -euo pipefail

HOST=127.0.0.1
PORT=${NATS_PORT:-4222}
DATA_ROOT=${ERP_DATA_DIR:-./data}

say() { printf 'ensure-nats: %s\n' "$*"; }
die() { printf 'ensure-nats: error: %s\n' "$*" >&2; exit 1; }

# Print the server's INFO line (then say CONNECT/PING and close politely);
# fail when nothing answers.
nats_info() {
    # shellcheck disable=SC2016 # expanded by the inner bash ($0 $1 are its args)
    timeout 5 bash -c '
        exec 3<>"/dev/tcp/$0/$1" || exit 2
        IFS= read -r -t 3 info <&3 || exit 2
        case "$info" in INFO*) ;; *) exit 3 ;; esac
        printf "CONNECT {\"verbose\":false,\"pedantic\":false}\r\nPING\r\n" >&3
        IFS= read -r -t 3 _ <&3 || true
        printf "%s\n" "$info"
    ' "$HOST" "$PORT" 2>/dev/null
}

# 0: NATS with JetStream; 1: NATS without JetStream; 2: nothing (or not NATS).
state() {
    local info
    info=$(nats_info) || return 2
    case "$info" in *'"jetstream":true'*) return 0 ;; esac
    return 1
}

check_up() {
    local s=0
    state || s=$?
    case "$s" in
        0) exit 0 ;;
        1) die "the NATS server on $HOST:$PORT runs without JetStream (restart it with -js)" ;;
    esac
}

check_up

BIN=$(command -v nats-server || true)
# /usr/sbin is not on a normal user's PATH.
if [ -z "$BIN" ] && [ -x /usr/sbin/nats-server ]; then BIN=/usr/sbin/nats-server; fi
if [ -z "$BIN" ]; then
    [ "$(id -u)" -eq 0 ] || die "nats-server is not installed (apt-get install nats-server, as root)"
    say "installing Debian's nats-server"
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nats-server >/dev/null
    BIN=/usr/sbin/nats-server
    [ -x "$BIN" ] || die "nats-server installed but $BIN is missing"
    check_up # in case the package started one on this port
fi

mkdir -p "$DATA_ROOT/nats"
DIR=$(cd "$DATA_ROOT/nats" && pwd)

# Serialise concurrent callers; the server must not inherit the lock (fd 9).
if command -v flock >/dev/null 2>&1; then
    exec 9>"$DIR/.lock"
    flock 9
    check_up
fi

setsid "$BIN" -a "$HOST" -p "$PORT" -js -sd "$DIR/jetstream" \
    -P "$DIR/nats.pid" -l "$DIR/nats.log" </dev/null >/dev/null 2>&1 9>&- &

for _ in $(seq 1 50); do
    s=0
    state || s=$?
    if [ "$s" -eq 0 ]; then
        say "started nats-server (JetStream, store $DIR/jetstream) on $HOST:$PORT"
        exit 0
    fi
    sleep 0.2
done
tail -n 20 "$DIR/nats.log" >&2 2>/dev/null || true
die "nats-server did not come up on $HOST:$PORT (log: $DIR/nats.log)"
