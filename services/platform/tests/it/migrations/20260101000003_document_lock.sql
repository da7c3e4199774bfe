-- A header flag that locks the document's product lines once true (Lines::locked_by).
ALTER TABLE docs ADD COLUMN doc_baixado boolean NOT NULL DEFAULT false;
