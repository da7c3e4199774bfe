-- The stock unit of a purchase item: the NF-e's taxable unit (uTrib) when it counts
-- apart from the commercial one (10 CX = 120 UN), else the purchase unit. A product
-- created from the item takes it, so its stock is counted in what entered.
-- Runs with search_path = orders.
ALTER TABLE compra_produtos ADD COLUMN cmpp_unidade_estoque text;
