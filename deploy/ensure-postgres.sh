#!/usr/bin/env bash
# Make sure a PostgreSQL server answers on 127.0.0.1:${PGPORT:-5432} and has
# the database ${ERP_DB_NAME:-erp}. Idempotent; prints nothing when the server
# is already up and the database exists.
#
# When nothing answers:
#   1. a stopped Debian cluster (pg_lsclusters) configured on that port is
#      started with `pg_ctlcluster --skip-systemctl-redirect VER NAME start`;
#   2. otherwise a project-local cluster under ${ERP_DATA_DIR:-./data}/pg is
#      created (trust auth, superuser "postgres", listening on 127.0.0.1 only,
#      no fsync: a throwaway dev/CI cluster) and started with the newest
#      /usr/lib/postgresql/*/bin; Debian's postgresql is installed first when
#      there are no such binaries and we are root. As root, the local cluster
#      runs as the "postgres" user (initdb refuses root).
#
# The server must allow ERP_PG_MIN_CONNECTIONS (200) connections: `erp run` keeps
# a pool of up to 16 per service (seven services), and the tests run two such stacks
# at once; PostgreSQL's default of 100 refuses connections under load ('remaining
# connection slots are reserved'). A server below that gets `ALTER SYSTEM SET
# max_connections = 300` and a restart (once; it persists).
#
# Env: PGPORT, ERP_DB_NAME (empty: create no database): by default the port
# and database of DATABASE_URL when it points at 127.0.0.1/localhost, else
# 5432 and erp; ERP_DATA_DIR (./data). Stop a local cluster with:
#   pg_ctl -D "$ERP_DATA_DIR/pg" stop     (as its owner)
set -euo pipefail

HOST=127.0.0.1
url_port='' url_db=''
url_re='^postgres(ql)?://([^@/]*@)?(127\.0\.0\.1|localhost)(:([0-9]+))?/([^?]+)'
if [[ ${DATABASE_URL:-} =~ $url_re ]]; then
    url_port=${BASH_REMATCH[5]}
    url_db=${BASH_REMATCH[6]}
fi
PORT=${PGPORT:-${url_port:-5432}}
DB_NAME=${ERP_DB_NAME-${url_db:-erp}}
DATA_ROOT=${ERP_DATA_DIR:-./data}

say() { printf 'ensure-postgres: %s\n' "$*"; }
die() { printf 'ensure-postgres: error: %s\n' "$*" >&2; exit 1; }

# Newest installed server binaries, or nothing.
pg_bin_dir() {
    local d found=()
    for d in /usr/lib/postgresql/*/bin; do
        [ -x "$d/postgres" ] && found+=("$d")
    done
    [ "${#found[@]}" -gt 0 ] || return 0
    printf '%s\n' "${found[@]}" | sort -V | tail -n1
}

PG_BIN=$(pg_bin_dir)

pg_tool() {
    local name=$1
    if [ -n "$PG_BIN" ] && [ -x "$PG_BIN/$name" ]; then
        echo "$PG_BIN/$name"
    else
        command -v "$name" || true
    fi
}

# 0: accepting connections; 1: starting up/rejecting; 2: no answer.
ready_state() {
    local isready
    isready=$(pg_tool pg_isready)
    if [ -n "$isready" ]; then
        local rc=0
        "$isready" -q -h "$HOST" -p "$PORT" -t 3 || rc=$?
        return "$rc"
    fi
    # No client tools at all: an open port is the best we can tell.
    if (exec 3<>"/dev/tcp/$HOST/$PORT") 2>/dev/null; then return 0; fi
    return 2
}

wait_ready() {
    local i
    for i in $(seq 1 60); do
        ready_state && return 0
        [ "$i" -eq 60 ] || sleep 0.5
    done
    return 1
}

ensure_database() {
    [ -n "$DB_NAME" ] || return 0
    local psql createdb exists
    psql=$(pg_tool psql)
    createdb=$(pg_tool createdb)
    if [ -z "$psql" ] || [ -z "$createdb" ]; then
        say "warning: no psql/createdb; cannot check database $DB_NAME" >&2
        return 0
    fi
    if ! exists=$("$psql" -X -q -w -h "$HOST" -p "$PORT" -U postgres -d postgres -tAc \
        "SELECT 1 FROM pg_database WHERE datname = '$DB_NAME'" 2>&1); then
        say "warning: cannot check database $DB_NAME as user postgres: ${exists##*FATAL:  }" >&2
        return 0
    fi
    if [ "$exists" != "1" ]; then
        "$createdb" -w -h "$HOST" -p "$PORT" -U postgres "$DB_NAME"
        say "created database $DB_NAME on $HOST:$PORT"
    fi
}

MIN_CONNECTIONS=${ERP_PG_MIN_CONNECTIONS:-200}

# Restarts the server on $PORT: its Debian cluster, else the project-local one.
restart_server() {
    local ver name cport _rest
    if command -v pg_lsclusters >/dev/null 2>&1; then
        while read -r ver name cport _rest; do
            [ "$cport" = "$PORT" ] || continue
            pg_ctlcluster --skip-systemctl-redirect "$ver" "$name" restart && return 0
        done < <(pg_lsclusters -h 2>/dev/null || true)
    fi
    local pgdir="$DATA_ROOT/pg" ctl
    ctl=$(pg_tool pg_ctl)
    if [ -s "$pgdir/PG_VERSION" ] && [ -n "$ctl" ]; then
        if [ "$(id -u)" -eq 0 ]; then
            runuser -u postgres -- "$ctl" -D "$pgdir" -w -t 60 restart >/dev/null && return 0
        else
            "$ctl" -D "$pgdir" -w -t 60 restart >/dev/null && return 0
        fi
    fi
    return 1
}

ensure_connections() {
    local psql have
    psql=$(pg_tool psql)
    [ -n "$psql" ] || return 0
    have=$("$psql" -X -q -w -h "$HOST" -p "$PORT" -U postgres -d postgres -tAc "SHOW max_connections" 2>/dev/null) || return 0
    [ -n "$have" ] && [ "$have" -lt "$MIN_CONNECTIONS" ] || return 0
    "$psql" -X -q -w -h "$HOST" -p "$PORT" -U postgres -d postgres -c "ALTER SYSTEM SET max_connections = 300" >/dev/null \
        || { say "warning: max_connections is $have (< $MIN_CONNECTIONS) and cannot be raised" >&2; return 0; }
    if restart_server; then
        wait_ready || die "PostgreSQL on $HOST:$PORT did not come back after the restart"
        say "max_connections raised from $have to 300 (restarted)"
    else
        say "warning: max_connections set to 300; restart PostgreSQL on $HOST:$PORT to apply it" >&2
    fi
}

finish() {
    wait_ready || die "PostgreSQL on $HOST:$PORT did not become ready"
    ensure_connections
    ensure_database
    exit 0
}

# --- already up? ----------------------------------------------------------
state=0
ready_state || state=$?
if [ "$state" -eq 1 ]; then
    finish # starting up: wait for it
elif [ "$state" -eq 0 ]; then
    ensure_connections
    ensure_database
    exit 0
fi

# --- a stopped Debian cluster on this port? -----------------------------------
if command -v pg_lsclusters >/dev/null 2>&1 && command -v pg_ctlcluster >/dev/null 2>&1; then
    # columns: version name port status owner datadir logfile
    while read -r ver name cport status owner _; do
        [ "$cport" = "$PORT" ] || continue
        case "$status" in online*) continue ;; esac
        if [ "$(id -u)" -eq 0 ] || [ "$(id -un)" = "$owner" ]; then
            pg_ctlcluster --skip-systemctl-redirect "$ver" "$name" start
            say "started cluster $ver/$name on $HOST:$PORT"
            finish
        fi
        die "cluster $ver/$name (port $PORT) is down and only root or $owner can start it"
    done < <(pg_lsclusters -h 2>/dev/null || true)
fi

# --- a project-local cluster --------------------------------------------------
if [ -z "$PG_BIN" ]; then
    [ "$(id -u)" -eq 0 ] || die "no PostgreSQL binaries under /usr/lib/postgresql (apt-get install postgresql, as root)"
    say "installing Debian's postgresql"
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
    PG_BIN=$(pg_bin_dir)
    [ -n "$PG_BIN" ] || die "postgresql installed but no /usr/lib/postgresql/*/bin/postgres"
    # The package creates (and may start) its own cluster on 5432: re-run to
    # use it when that is the port asked for.
    exec bash "${BASH_SOURCE[0]}" "$@"
fi

mkdir -p "$DATA_ROOT"
DATA_ROOT=$(cd "$DATA_ROOT" && pwd)
PGDIR="$DATA_ROOT/pg"

# initdb and postgres refuse to run as root: run them as "postgres" then.
as_owner() { "$@"; }
if [ "$(id -u)" -eq 0 ]; then
    id postgres >/dev/null 2>&1 || die "running as root but there is no postgres user to own $PGDIR"
    as_owner() { runuser -u postgres -- "$@"; }
fi

# Serialise concurrent callers (make -j) on the same data directory.
if command -v flock >/dev/null 2>&1; then
    exec 9>"$DATA_ROOT/.pg.lock"
    flock 9
    # Someone may have started it while we waited.
    state=0
    ready_state || state=$?
    [ "$state" -eq 2 ] || finish
fi

mkdir -p "$PGDIR"
if [ "$(id -u)" -eq 0 ]; then
    chown postgres: "$PGDIR"
fi
chmod 700 "$PGDIR"
as_owner test -w "$PGDIR" || die "$(as_owner id -un) cannot write $PGDIR (a private parent directory? set ERP_DATA_DIR elsewhere)"

if [ ! -s "$PGDIR/PG_VERSION" ]; then
    as_owner "$PG_BIN/initdb" -D "$PGDIR" -U postgres -A trust -E UTF8 --locale=C.UTF-8 >"$DATA_ROOT/pg-initdb.log" 2>&1 \
        || { cat "$DATA_ROOT/pg-initdb.log" >&2; die "initdb failed"; }
    as_owner tee -a "$PGDIR/postgresql.conf" >/dev/null <<'EOF'

# --- ensure-postgres.sh: throwaway dev/CI cluster ---
listen_addresses = '127.0.0.1'
unix_socket_directories = ''
fsync = off
synchronous_commit = off
full_page_writes = off
max_connections = 300
EOF
fi

if as_owner "$PG_BIN/pg_ctl" -D "$PGDIR" status >/dev/null 2>&1; then
    die "the cluster in $PGDIR is running but not answering on $HOST:$PORT (another port?)"
fi
as_owner "$PG_BIN/pg_ctl" -D "$PGDIR" -l "$PGDIR/server.log" -o "-p $PORT" -w -t 60 start >/dev/null 9>&- \
    || { tail -n 20 "$PGDIR/server.log" >&2 || true; die "pg_ctl start failed (log: $PGDIR/server.log)"; }
say "started local cluster $PGDIR on $HOST:$PORT ($("$PG_BIN/postgres" --version))"
finish
