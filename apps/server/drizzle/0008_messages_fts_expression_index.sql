DROP INDEX "messages_body_tsv_idx";--> statement-breakpoint
CREATE INDEX "messages_body_fts_idx" ON "messages" USING gin (to_tsvector('simple', "body"));--> statement-breakpoint
ALTER TABLE "messages" DROP COLUMN "body_tsv";