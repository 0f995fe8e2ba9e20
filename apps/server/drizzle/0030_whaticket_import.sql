-- Issue 32: the whaticket importer (cli/import-whaticket). A company being imported stays hidden
-- (companies.importing) until its import completes; import_id_map records where each
-- whaticket row went, so a second run adds only what is new and a killed run resumes.
CREATE TABLE "import_id_map" (
	"source" text NOT NULL,
	"source_table" text NOT NULL,
	"source_id" text NOT NULL,
	"target_id" bigint NOT NULL,
	"company_id" integer,
	CONSTRAINT "import_id_map_source_source_table_source_id_pk" PRIMARY KEY("source","source_table","source_id")
);
--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "importing" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "import_id_map" ADD CONSTRAINT "import_id_map_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "import_id_map_company_id_idx" ON "import_id_map" USING btree ("company_id");