CREATE TABLE `watch_events` (
	`id` text PRIMARY KEY NOT NULL,
	`rule_id` integer NOT NULL,
	`created_at` integer NOT NULL,
	`body` text NOT NULL,
	`webhook_url` text,
	`status` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`last_attempt_at` integer,
	`last_error` text,
	`delivered_at` integer
);
--> statement-breakpoint
CREATE INDEX `watch_events_created_at` ON `watch_events` (`created_at`);--> statement-breakpoint
CREATE INDEX `watch_events_status` ON `watch_events` (`status`,`created_at`);--> statement-breakpoint
CREATE TABLE `watch_rules` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`label` text NOT NULL,
	`product_key` text NOT NULL,
	`slot` text NOT NULL,
	`kind` text NOT NULL,
	`amount_minor` integer,
	`percent` real,
	`direction` text,
	`span_ms` integer,
	`webhook_url` text,
	`created_at` integer NOT NULL,
	`firing` integer DEFAULT false NOT NULL,
	`last_value` real,
	`changed_at` integer
);
