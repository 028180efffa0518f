CREATE TABLE `product_identities` (
	`product_id` integer NOT NULL,
	`scheme` text NOT NULL,
	`value` text NOT NULL,
	PRIMARY KEY(`product_id`, `scheme`),
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `product_identities_scheme_value` ON `product_identities` (`scheme`,`value`);