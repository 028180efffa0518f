CREATE TABLE `index_values` (
	`index_id` integer NOT NULL,
	`at` integer NOT NULL,
	`version` integer NOT NULL,
	`value` real NOT NULL,
	`low` real NOT NULL,
	`high` real NOT NULL,
	`priced` integer NOT NULL,
	`linked` integer NOT NULL,
	`published_at` integer NOT NULL,
	PRIMARY KEY(`index_id`, `at`, `version`),
	FOREIGN KEY (`index_id`) REFERENCES `market_indexes`(`id`) ON UPDATE no action ON DELETE no action
);
