CREATE TABLE `api_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`label` text NOT NULL,
	`secret_hash` text NOT NULL,
	`created_at` integer NOT NULL,
	`last_used_at` integer,
	`revoked_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_secret_hash` ON `api_keys` (`secret_hash`);--> statement-breakpoint
CREATE TABLE `ingest_runs` (
	`id` integer PRIMARY KEY NOT NULL,
	`source` text NOT NULL,
	`kind` text NOT NULL,
	`format` text NOT NULL,
	`dry_run` integer DEFAULT false NOT NULL,
	`started_at` integer NOT NULL,
	`finished_at` integer,
	`status` text DEFAULT 'running' NOT NULL,
	`read_count` integer DEFAULT 0 NOT NULL,
	`inserted_count` integer DEFAULT 0 NOT NULL,
	`duplicate_count` integer DEFAULT 0 NOT NULL,
	`rejected_count` integer DEFAULT 0 NOT NULL,
	`error` text
);
--> statement-breakpoint
CREATE TABLE `observations` (
	`id` integer PRIMARY KEY NOT NULL,
	`product_id` integer NOT NULL,
	`condition` text NOT NULL,
	`observed_at` integer NOT NULL,
	`price_minor` integer NOT NULL,
	`source` text NOT NULL,
	`grader` text NOT NULL,
	`grade` real,
	`external_id` text DEFAULT '' NOT NULL,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `observations_pricing` ON `observations` (`product_id`,`condition`,`observed_at`,`price_minor`,`source`,`external_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `observations_source_external_id` ON `observations` (`source`,`external_id`) WHERE external_id <> '';--> statement-breakpoint
CREATE TABLE `products` (
	`id` integer PRIMARY KEY NOT NULL,
	`product_key` text NOT NULL,
	`refsource_id` text,
	`product_name` text NOT NULL,
	`subtitle` text DEFAULT '' NOT NULL,
	`set_name` text DEFAULT '' NOT NULL,
	`image_url` text DEFAULT '' NOT NULL,
	`product_type` text DEFAULT 'single_card' NOT NULL,
	`era` text DEFAULT 'modern' NOT NULL,
	`release_date` text,
	`tcgplayer_id` text,
	`earliest_observed_at` integer,
	`observation_count` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `products_product_key` ON `products` (`product_key`);--> statement-breakpoint
CREATE UNIQUE INDEX `products_refsource_id` ON `products` (`refsource_id`);--> statement-breakpoint
CREATE INDEX `products_tcgplayer_id` ON `products` (`tcgplayer_id`);