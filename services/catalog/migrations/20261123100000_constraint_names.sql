-- Names for the unique constraints that were declared inline (`UNIQUE` on a column)
-- and so carried PostgreSQL's generated names. The registers map each constraint
-- name to a pt-BR message, so the names are part of the contract: give them the
-- `<table>_<what>_key` form the other constraints of this schema use.
-- Runs with search_path = catalog.

ALTER TABLE paises RENAME CONSTRAINT paises_pais_sigla_key TO paises_sigla_key;
ALTER TABLE paises RENAME CONSTRAINT paises_pais_cod_bacen_key TO paises_cod_bacen_key;
ALTER TABLE estados RENAME CONSTRAINT estados_est_sigla_key TO estados_sigla_key;
ALTER TABLE bancosbr RENAME CONSTRAINT bancosbr_bcobr_ispb_key TO bancosbr_ispb_key;
