CREATE TABLE `market_indexes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`label` text NOT NULL,
	`selector` text NOT NULL,
	`selector_value` text NOT NULL,
	`slot` text NOT NULL,
	`method` text NOT NULL,
	`base_date` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `market_indexes_name` ON `market_indexes` (`name`);