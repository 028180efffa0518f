ALTER TABLE `observations` ADD `sales_volume` integer;--> statement-breakpoint
ALTER TABLE `observations` ADD `matched_by` text;--> statement-breakpoint
ALTER TABLE `products` ADD `language` text;