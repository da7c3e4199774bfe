-- Platform infrastructure of every service schema (runs with search_path set to it).

-- Transactional outbox: written in the domain transaction, published by the relay
-- with Nats-Msg-Id = id, marked after the bus acknowledged it.
CREATE TABLE outbox (
    id           uuid PRIMARY KEY,
    subject      text NOT NULL,
    client_id    bigint NOT NULL,
    payload      bytea NOT NULL,
    headers      jsonb NOT NULL DEFAULT '{}'::jsonb,
    created_at   timestamptz NOT NULL DEFAULT now(),
    published_at timestamptz
);
CREATE INDEX outbox_pending ON outbox (created_at) WHERE published_at IS NULL;

-- Inbox: one row per (consumer, event) applied, so a redelivery changes nothing.
CREATE TABLE inbox (
    consumer     text NOT NULL,
    event_id     text NOT NULL,
    client_id    bigint NOT NULL,
    processed_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (consumer, event_id)
);

-- Per-company numbering of register ids (customer 1, 2, 3... of each company).
CREATE TABLE id_counters (
    client_id bigint NOT NULL,
    emp_id    bigint NOT NULL,
    resource  text   NOT NULL,
    last_id   bigint NOT NULL,
    PRIMARY KEY (client_id, emp_id, resource)
);
ALTER TABLE id_counters ENABLE ROW LEVEL SECURITY;
ALTER TABLE id_counters FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant ON id_counters
    USING (client_id = erp_current_client())
    WITH CHECK (client_id = erp_current_client());
