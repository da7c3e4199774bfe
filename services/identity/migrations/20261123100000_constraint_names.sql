-- The unique program name was declared inline (`UNIQUE` on the column) and so
-- carried PostgreSQL's generated name. The programs register maps the constraint
-- name to a pt-BR message, so the name is part of the contract: give it the
-- `<table>_<what>_key` form the other constraints of this schema use.
-- Runs with search_path = identity.

ALTER TABLE programas RENAME CONSTRAINT programas_prog_nome_key TO programas_nome_key;
