-- What a printed quote or order shows of the company (its header): name, trade
-- name, city and state, kept from identity's company facts with the document.
ALTER TABLE empresas ADD COLUMN nome text, ADD COLUMN fantasia text,
    ADD COLUMN cidade text, ADD COLUMN uf text;
