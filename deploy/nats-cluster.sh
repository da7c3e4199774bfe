#!/usr/bin/env bash
# A 3-node NATS JetStream cluster on loopback, for running the product against
# a cluster (ERP_NATS_REPLICAS=3) and for killing its leaders by hand.
#
#   deploy/nats-cluster.sh start          # three nats-server, cluster "erp"; waits until healthy
#   deploy/nats-cluster.sh urls           # the NATS_URL of all three (comma-separated)
#   deploy/nats-cluster.sh status         # each node: pid, up or down
#   deploy/nats-cluster.sh leader [S]     # the node (1-3) leading stream S (default ERP)
#   deploy/nats-cluster.sh kill-leader [S]  # SIGKILL that node; prints its number
#   deploy/nats-cluster.sh kill <n>       # SIGKILL node n
#   deploy/nats-cluster.sh restart <n>    # start node n again (same store)
#   deploy/nats-cluster.sh stop           # stop every node (the stores stay)
#   deploy/nats-cluster.sh clean          # stop, and delete the stores
#
# Node n (1-3) is server "erp-n": clients on 127.0.0.1:$((CLIENT_BASE+n)),
# routes on $((ROUTE_BASE+n)), HTTP monitoring on $((MONITOR_BASE+n)); its
# config, store (jetstream/), pid and log are in $DIR/n<n>/.
#
# Run the product on it:
#   deploy/nats-cluster.sh start
#   NATS_URL=$(deploy/nats-cluster.sh urls) ERP_NATS_REPLICAS=3 erp run
#
# Env: ERP_NATS_CLUSTER_DIR (default ${TMPDIR:-/tmp}/erp-nats-cluster),
#      NATS_CLUSTER_CLIENT_BASE (4310), NATS_CLUSTER_ROUTE_BASE (6310),
#      NATS_CLUSTER_MONITOR_BASE (8310), NATS_SERVER_BIN.
# Needs nats-server >= 2.9 (Debian's: /usr/sbin/nats-server) and curl; the
# stream leader is read from each node's monitoring endpoint
# (/jsz?accounts=true&streams=true: the stream's cluster.leader on the node
# that leads it), so no `nats` CLI is needed.
set -euo pipefail

DIR=${ERP_NATS_CLUSTER_DIR:-${TMPDIR:-/tmp}/erp-nats-cluster}
CLIENT_BASE=${NATS_CLUSTER_CLIENT_BASE:-4310}
ROUTE_BASE=${NATS_CLUSTER_ROUTE_BASE:-6310}
MONITOR_BASE=${NATS_CLUSTER_MONITOR_BASE:-8310}
HOST=127.0.0.1
NODES="1 2 3"

say() { printf 'nats-cluster: %s\n' "$*" >&2; }
die() { printf 'nats-cluster: error: %s\n' "$*" >&2; exit 1; }

bin() {
    if [ -n "${NATS_SERVER_BIN:-}" ]; then echo "$NATS_SERVER_BIN"; return; fi
    command -v nats-server 2>/dev/null && return
    [ -x /usr/sbin/nats-server ] && { echo /usr/sbin/nats-server; return; }
    die "nats-server is not installed (Debian: apt-get install nats-server)"
}

node_ok() { case "${1:-}" in 1 | 2 | 3) ;; *) die "node must be 1, 2 or 3 (got '${1:-}')" ;; esac; }

# A process that runs (a killed one may linger as a zombie until reaped).
alive() {
    local s
    s=$(ps -o stat= -p "$1" 2>/dev/null) || return 1
    case "$s" in Z*) return 1 ;; esac
}

pid_of() {
    local f="$DIR/n$1/nats.pid" p
    [ -f "$f" ] || return 1
    p=$(cat "$f")
    [ -n "$p" ] && alive "$p" || return 1
    echo "$p"
}

write_config() {
    local n=$1 routes="" m
    for m in $NODES; do routes="$routes nats-route://$HOST:$((ROUTE_BASE + m))"; done
    mkdir -p "$DIR/n$n"
    cat >"$DIR/n$n/nats.conf" <<EOF
server_name: erp-$n
listen: $HOST:$((CLIENT_BASE + n))
http: $HOST:$((MONITOR_BASE + n))
pid_file: "$DIR/n$n/nats.pid"
log_file: "$DIR/n$n/nats.log"
jetstream {
  store_dir: "$DIR/n$n"
  max_memory_store: 256MB
  max_file_store: 2GB
}
cluster {
  name: erp
  listen: $HOST:$((ROUTE_BASE + n))
  routes: [$(echo "$routes" | sed 's/^ //; s/ /, /g')]
}
EOF
}

healthy() { curl -fsS -m 1 "http://$HOST:$((MONITOR_BASE + $1))/healthz" >/dev/null 2>&1; }

up() {
    local n=$1
    if pid_of "$n" >/dev/null; then return 0; fi
    write_config "$n"
    setsid "$(bin)" -c "$DIR/n$n/nats.conf" </dev/null >/dev/null 2>&1 &
    for _ in $(seq 1 100); do
        pid_of "$n" >/dev/null && return 0
        sleep 0.1
    done
    tail -n 20 "$DIR/n$n/nats.log" >&2 2>/dev/null || true
    die "node $n did not start (log: $DIR/n$n/nats.log)"
}

# Waits until every running node answers /healthz (JetStream up, meta leader known).
wait_healthy() {
    local n ok
    for _ in $(seq 1 300); do
        ok=1
        for n in $NODES; do
            if pid_of "$n" >/dev/null && ! healthy "$n"; then ok=0; fi
        done
        [ "$ok" = 1 ] && return 0
        sleep 0.1
    done
    die "the cluster did not become healthy in 30 s (logs: $DIR/n*/nats.log)"
}

down() {
    local n=$1 p
    p=$(pid_of "$n") || return 0
    kill "-${2:-TERM}" "$p" 2>/dev/null || true
    for _ in $(seq 1 100); do
        alive "$p" || break
        sleep 0.1
    done
    alive "$p" && kill -KILL "$p" 2>/dev/null || true
    rm -f "$DIR/n$n/nats.pid"
}

# The node (1-3) whose monitoring endpoint says it leads stream $1.
leader() {
    local stream=${1:-ERP} n json
    for n in $NODES; do
        pid_of "$n" >/dev/null || continue
        json=$(curl -fsS -m 1 "http://$HOST:$((MONITOR_BASE + n))/jsz?accounts=true&streams=true" 2>/dev/null) || continue
        # The stream's entry, then its cluster's leader: "leader":"erp-<n>".
        if printf '%s' "$json" | tr -d ' \n' |
            grep -o "\"name\":\"$stream\",\"created\"[^]]*" |
            grep -q "\"leader\":\"erp-$n\""; then
            echo "$n"
            return 0
        fi
    done
    return 1
}

urls() {
    local n out=""
    for n in $NODES; do out="$out,nats://$HOST:$((CLIENT_BASE + n))"; done
    echo "${out#,}"
}

cmd=${1:-}
case "$cmd" in
    start)
        for n in $NODES; do up "$n"; done
        wait_healthy
        say "3 nodes up (cluster erp, store $DIR); NATS_URL=$(urls)"
        ;;
    stop)
        for n in $NODES; do down "$n"; done
        ;;
    clean)
        for n in $NODES; do down "$n"; done
        rm -rf "$DIR"
        ;;
    status)
        for n in $NODES; do
            if p=$(pid_of "$n"); then
                h=down; healthy "$n" && h=healthy
                echo "erp-$n pid $p client $((CLIENT_BASE + n)) monitor $((MONITOR_BASE + n)) $h"
            else
                echo "erp-$n stopped"
            fi
        done
        ;;
    urls) urls ;;
    leader) leader "${2:-ERP}" || die "no node leads stream ${2:-ERP}" ;;
    kill-leader)
        n=$(leader "${2:-ERP}") || die "no node leads stream ${2:-ERP}"
        down "$n" KILL
        echo "$n"
        ;;
    kill)
        node_ok "${2:-}"
        down "$2" KILL
        ;;
    restart)
        node_ok "${2:-}"
        down "$2"
        up "$2"
        wait_healthy
        ;;
    *)
        sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
        exit 2
        ;;
esac
