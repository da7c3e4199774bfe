"""What a Python team would build instead, for `make bench` (deploy/bench.sh).

FastAPI + asyncpg under uvicorn with uvloop and httptools, one worker: serves
the engine's own 20-row list statement (the SQL and parameters `erp bench-sql`
prints, read from BENCH_SPEC) inside a tenant transaction, as the application
role, and answers the rows as JSON (orjson). No authentication, no service hop.
"""

import json
import os
from decimal import Decimal

import asyncpg
import orjson
from fastapi import FastAPI
from fastapi.responses import Response

SPEC = json.loads(open(os.environ["BENCH_SPEC"]).read())
CLIENT = os.environ["BENCH_CLIENT"]
DSN = os.environ["BENCH_DSN"]

app = FastAPI()
pool: asyncpg.Pool | None = None
params: list = []


def typed(value: str, pg_type: str):
    if pg_type in ("int2", "int4", "int8"):
        return int(value)
    if pg_type == "numeric":
        return Decimal(value)
    return value


@app.on_event("startup")
async def startup() -> None:
    global pool, params
    pool = await asyncpg.create_pool(DSN, min_size=16, max_size=16)
    async with pool.acquire() as conn:
        async with conn.transaction():
            await conn.execute("SELECT set_config('app.client_id', $1, true)", CLIENT)
            stmt = await conn.prepare(SPEC["sql"])
            params = [typed(v, t.name) for v, t in zip(SPEC["params"], stmt.get_parameters())]


def default(v):
    if isinstance(v, Decimal):
        return str(v)
    raise TypeError


@app.post("/clientes/{emp}")
async def clientes(emp: int) -> Response:
    assert pool is not None
    async with pool.acquire() as conn:
        async with conn.transaction():
            await conn.execute("SELECT set_config('app.client_id', $1, true)", CLIENT)
            rows = await conn.fetch(SPEC["sql"], *params)
    body = orjson.dumps([dict(r) for r in rows], default=default)
    return Response(content=body, media_type="application/json")
