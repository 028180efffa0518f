ALTER TABLE "observations" ADD COLUMN "sales_volume" integer;--> statement-breakpoint
ALTER TABLE "observations" ADD COLUMN "matched_by" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "language" text;