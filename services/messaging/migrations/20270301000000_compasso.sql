-- Message ids from a sequence: a per-company counter row locked until the
-- enqueuing transaction commits made a company's sends queue one behind the
-- other. Ids stay unique (the key is client, company, id), only no longer dense.
-- The owner reads the current maximum with the table's row security lifted for
-- this transaction (an owner is exempt unless it is forced).
CREATE SEQUENCE mensagens_id_seq;
ALTER TABLE mensagens NO FORCE ROW LEVEL SECURITY;
SELECT setval('mensagens_id_seq', coalesce((SELECT max(mens_id) FROM mensagens), 0) + 1, false);
ALTER TABLE mensagens FORCE ROW LEVEL SECURITY;

-- The pace of a company's WhatsApp sends (`WCFG_LIMITE_MINUTO`): the next free
-- instant. Each message takes the next slot, 60/limit seconds after the one
-- before, and keeps it in `fila.vez` until it is due: sends are spread evenly,
-- never more than the limit in any 60 seconds, and a backlog is not claimed
-- again and again while it waits. Ids and times only, like `fila`.
CREATE TABLE compasso (
    client_id bigint      NOT NULL,
    emp_id    bigint      NOT NULL,
    proximo   timestamptz NOT NULL,
    PRIMARY KEY (client_id, emp_id)
);
ALTER TABLE fila ADD COLUMN vez timestamptz;

-- The per-clock-minute counters it replaces.
DROP TABLE ritmo;
