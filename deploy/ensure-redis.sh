#!/usr/bin/env bash
# Make sure a Redis server answers on 127.0.0.1:${REDIS_PORT:-6379}.
# Idempotent; prints nothing when one is already up.
#
# When nothing answers, starts
#   redis-server --daemonize yes --bind 127.0.0.1 --port PORT --save "" --appendonly no
# (nothing kept on disk; log and pid file under ${ERP_DATA_DIR:-./data}/redis),
# installing Debian's redis-server first when it is missing and we are root.
#
# Env: REDIS_PORT (6379), ERP_DATA_DIR (./data). Stop the one started here
# with: redis-cli -p "$REDIS_PORT" shutdown nosave
set -euo pipefail

HOST=127.0.0.1
PORT=${REDIS_PORT:-6379}
DATA_ROOT=${ERP_DATA_DIR:-./data}

say() { printf 'ensure-redis: %s\n' "$*"; }
die() { printf 'ensure-redis: error: %s\n' "$*" >&2; exit 1; }

# PING over the inline protocol; a server that wants a password (NOAUTH)
# is up as well.
redis_up() {
    # shellcheck disable=SC2016 # expanded by the inner bash ($0 $1 are its args)
    timeout 5 bash -c '
        exec 3<>"/dev/tcp/$0/$1" || exit 2
        printf "PING\r\n" >&3
        IFS= read -r -t 3 reply <&3 || exit 2
        case "$reply" in "+PONG"*|"-NOAUTH"*) exit 0 ;; esac
        exit 1
    ' "$HOST" "$PORT" 2>/dev/null
}

redis_up && exit 0

BIN=$(command -v redis-server || true)
if [ -z "$BIN" ]; then
    [ "$(id -u)" -eq 0 ] || die "redis-server is not installed (apt-get install redis-server, as root)"
    say "installing Debian's redis-server"
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null
    BIN=$(command -v redis-server || true)
    [ -n "$BIN" ] || die "redis-server installed but not on PATH"
    redis_up && exit 0 # the package may have started one on this port
fi

mkdir -p "$DATA_ROOT/redis"
DIR=$(cd "$DATA_ROOT/redis" && pwd)

# Serialise concurrent callers; the daemon must not inherit the lock (fd 9).
if command -v flock >/dev/null 2>&1; then
    exec 9>"$DIR/.lock"
    flock 9
    redis_up && exit 0
fi

"$BIN" --daemonize yes --bind "$HOST" --port "$PORT" --save "" --appendonly no \
    --dir "$DIR" --logfile "$DIR/redis.log" --pidfile "$DIR/redis.pid" 9>&- \
    || die "redis-server failed to start (log: $DIR/redis.log)"

for _ in $(seq 1 50); do
    if redis_up; then
        say "started redis-server on $HOST:$PORT"
        exit 0
    fi
    sleep 0.2
done
tail -n 20 "$DIR/redis.log" >&2 2>/dev/null || true
die "redis-server did not come up on $HOST:$PORT (log: $DIR/redis.log)"
