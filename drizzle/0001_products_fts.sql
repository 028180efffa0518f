-- Full-text search over the catalog (oracle catalog --search, GET /api/v1/developer/catalog/search,
-- "did you mean" keys). An external-content FTS5 table: the text stays in products only, the
-- triggers keep the index in step. The update trigger names its columns so that the
-- per-ingest updates of earliest_observed_at and observation_count never touch the index.
-- unicode61 splits "4/102" and "pokemon-base-set-charizard-4-102" into words, folds case and
-- diacritics; the prefix indexes serve the 2- and 3-letter prefixes people type first.
CREATE VIRTUAL TABLE `products_fts` USING fts5(
  product_key, product_name, set_name, subtitle,
  content='products', content_rowid='id',
  tokenize='unicode61 remove_diacritics 2', prefix='2 3'
);
--> statement-breakpoint
CREATE TRIGGER `products_fts_insert` AFTER INSERT ON `products` BEGIN
  INSERT INTO products_fts(rowid, product_key, product_name, set_name, subtitle)
  VALUES (new.id, new.product_key, new.product_name, new.set_name, new.subtitle);
END;
--> statement-breakpoint
CREATE TRIGGER `products_fts_delete` AFTER DELETE ON `products` BEGIN
  INSERT INTO products_fts(products_fts, rowid, product_key, product_name, set_name, subtitle)
  VALUES ('delete', old.id, old.product_key, old.product_name, old.set_name, old.subtitle);
END;
--> statement-breakpoint
CREATE TRIGGER `products_fts_update` AFTER UPDATE OF product_key, product_name, set_name, subtitle ON `products` BEGIN
  INSERT INTO products_fts(products_fts, rowid, product_key, product_name, set_name, subtitle)
  VALUES ('delete', old.id, old.product_key, old.product_name, old.set_name, old.subtitle);
  INSERT INTO products_fts(rowid, product_key, product_name, set_name, subtitle)
  VALUES (new.id, new.product_key, new.product_name, new.set_name, new.subtitle);
END;
--> statement-breakpoint
-- Files created before this migration: index the products they already hold.
INSERT INTO products_fts(products_fts) VALUES ('rebuild');
