ALTER TABLE "messages" ADD COLUMN "send_status" text;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "send_error" text;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "send_attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "send_payload" jsonb;--> statement-breakpoint
CREATE INDEX "messages_pending_send_idx" ON "messages" USING btree ("updated_at") WHERE "messages"."send_status" = 'pending';