-- Pruning published outbox rows and old inbox rows walks these indexes.
CREATE INDEX outbox_published ON outbox (published_at) WHERE published_at IS NOT NULL;
CREATE INDEX inbox_processed ON inbox (processed_at);

-- Scheduled jobs of this service: the latest slot a scheduler published (so slots
-- missed while everything was down run once on start) and how the last run went.
CREATE TABLE jobs (
    name             text PRIMARY KEY,
    schedule         text NOT NULL,
    last_slot        timestamptz,
    last_started     timestamptz,
    last_finished    timestamptz,
    last_ok          boolean,
    last_outcome     text,
    last_duration_ms bigint,
    runs             bigint NOT NULL DEFAULT 0,
    failures         bigint NOT NULL DEFAULT 0
);
