CREATE TABLE "index_values" (
	"index_id" integer NOT NULL,
	"at" bigint NOT NULL,
	"version" integer NOT NULL,
	"value" double precision NOT NULL,
	"low" double precision NOT NULL,
	"high" double precision NOT NULL,
	"priced" integer NOT NULL,
	"linked" integer NOT NULL,
	"published_at" bigint NOT NULL,
	CONSTRAINT "index_values_index_id_at_version_pk" PRIMARY KEY("index_id","at","version")
);
--> statement-breakpoint
ALTER TABLE "index_values" ADD CONSTRAINT "index_values_index_id_market_indexes_id_fk" FOREIGN KEY ("index_id") REFERENCES "public"."market_indexes"("id") ON DELETE no action ON UPDATE no action;