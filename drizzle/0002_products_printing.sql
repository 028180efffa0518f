DROP INDEX `products_tcgplayer_id`;--> statement-breakpoint
ALTER TABLE `products` ADD `printing` text;--> statement-breakpoint
CREATE INDEX `products_tcgplayer_id` ON `products` (`tcgplayer_id`,`printing`);