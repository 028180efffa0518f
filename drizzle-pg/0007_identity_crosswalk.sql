CREATE TABLE "product_identities" (
	"product_id" integer NOT NULL,
	"scheme" text NOT NULL,
	"value" text NOT NULL,
	CONSTRAINT "product_identities_product_id_scheme_pk" PRIMARY KEY("product_id","scheme")
);
--> statement-breakpoint
ALTER TABLE "product_identities" ADD CONSTRAINT "product_identities_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "product_identities_scheme_value" ON "product_identities" USING btree ("scheme","value");