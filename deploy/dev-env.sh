# shellcheck shell=bash
# Sourced by `make run`/`make dev`: use NATS and Redis when they answer on their
# default ports (or as configured); otherwise the product runs with its
# in-process bus and cache. PostgreSQL is always required (deploy/ensure-postgres.sh).
answers() { timeout 1 bash -c "exec 3<>/dev/tcp/127.0.0.1/$1" 2>/dev/null; }
if [ -z "${NATS_URL:-}" ] && answers 4222; then export NATS_URL=nats://127.0.0.1:4222; fi
if [ -z "${REDIS_URL:-}" ] && answers 6379; then export REDIS_URL=redis://127.0.0.1:6379; fi
# GraphiQL (/graphql) needs introspection; production leaves it off.
export ERP_GRAPHQL_INTROSPECTION=${ERP_GRAPHQL_INTROSPECTION:-1}
echo "erp: banco ${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/erp} | barramento ${NATS_URL:-em processo} | cache ${REDIS_URL:-em processo}"
