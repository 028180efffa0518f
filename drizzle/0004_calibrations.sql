CREATE TABLE `calibrations` (
	`id` integer PRIMARY KEY NOT NULL,
	`as_of` integer NOT NULL,
	`created_at` integer NOT NULL,
	`body` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `calibrations_as_of` ON `calibrations` (`as_of`);