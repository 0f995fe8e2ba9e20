ALTER TABLE "messages" ADD COLUMN "data_json" jsonb;--> statement-breakpoint
ALTER TABLE "whatsapps" ADD COLUMN "problem" jsonb;