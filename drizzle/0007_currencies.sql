CREATE TABLE `fx_rates` (
	`day` text NOT NULL,
	`currency` text NOT NULL,
	`per_euro` real NOT NULL,
	`source` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `fx_rates_currency_day` ON `fx_rates` (`currency`,`day`);--> statement-breakpoint
ALTER TABLE `observations` ADD `currency` text DEFAULT 'USD' NOT NULL;--> statement-breakpoint
ALTER TABLE `observations` ADD `amount_minor` integer;