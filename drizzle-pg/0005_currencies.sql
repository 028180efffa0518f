CREATE TABLE "fx_rates" (
	"day" text NOT NULL,
	"currency" text NOT NULL,
	"per_euro" double precision NOT NULL,
	"source" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "observations" ADD COLUMN "currency" text DEFAULT 'USD' NOT NULL;--> statement-breakpoint
ALTER TABLE "observations" ADD COLUMN "amount_minor" bigint;--> statement-breakpoint
CREATE UNIQUE INDEX "fx_rates_currency_day" ON "fx_rates" USING btree ("currency","day");