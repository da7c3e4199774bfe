-- The days of a month a period covers only in part are read from `vendasitemdia`
-- by a range of days of one company (rollup.rs). With the quantities and values
-- in the key's index PostgreSQL answers that range from the index alone (past
-- days' pages are all-visible once vacuumed) instead of visiting a heap page for
-- every row. Runs with search_path = reports.

ALTER TABLE vendasitemdia
    DROP CONSTRAINT vendasitemdia_pkey,
    ADD CONSTRAINT vendasitemdia_pkey PRIMARY KEY (client_id, emp_id, dta, tipo, item_id) INCLUDE (qtde, valor);
