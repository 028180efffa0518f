ALTER TABLE `ingest_runs` ADD `host` text;--> statement-breakpoint
ALTER TABLE `ingest_runs` ADD `pid` integer;