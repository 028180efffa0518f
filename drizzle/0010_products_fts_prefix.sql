-- Issue 35: no search holds the event loop 100 ms on a 300,000-product catalog. A prefix
-- phrase FTS5 has no prefix index for (a 1-letter word, or one of 4 letters or more, "card"*)
-- is built whole from every term it covers, and bm25 walks that list again to count it:
-- 45-50 ms of CPU for a word every product holds, where a prefix index reads it as one term
-- (about 11 ms). So the index keeps prefixes of 1 to 8 characters, and fts-query.ts cuts a
-- longer search word to its first 8 (MAX_PREFIX_CHARS): every prefix a search asks for is one
-- term of the index. FTS5 sets its prefixes at creation, so the table is made anew and rebuilt
-- from products; the triggers of 0001_products_fts.sql are on products and name the table,
-- so they stay and write to the new one.
DROP TABLE `products_fts`;
--> statement-breakpoint
CREATE VIRTUAL TABLE `products_fts` USING fts5(
  product_key, product_name, set_name, subtitle,
  content='products', content_rowid='id',
  tokenize='unicode61 remove_diacritics 2', prefix='1 2 3 4 5 6 7 8'
);
--> statement-breakpoint
INSERT INTO products_fts(products_fts) VALUES ('rebuild');
