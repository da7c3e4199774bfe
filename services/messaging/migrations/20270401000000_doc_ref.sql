-- The reference of the document a message names (`MENS_DOC_REF`), a JSON object
-- as text: a report's name, format and filters (`relatorio`), an order's series
-- (`pedido`).
ALTER TABLE mensagens ADD COLUMN mens_doc_ref text;
