DROP INDEX "messages_user_id_idx";--> statement-breakpoint
DROP INDEX "messages_quoted_msg_id_idx";--> statement-breakpoint
DROP INDEX "tickets_user_id_idx";--> statement-breakpoint
DROP INDEX "tickets_queue_id_idx";--> statement-breakpoint
DROP INDEX "tickets_prompt_id_idx";--> statement-breakpoint
DROP INDEX "tickets_integration_id_idx";--> statement-breakpoint
DROP INDEX "tickets_queue_option_id_idx";--> statement-breakpoint
CREATE INDEX "messages_user_id_idx" ON "messages" USING btree ("user_id") WHERE "messages"."user_id" is not null;--> statement-breakpoint
CREATE INDEX "messages_quoted_msg_id_idx" ON "messages" USING btree ("quoted_msg_id") WHERE "messages"."quoted_msg_id" is not null;--> statement-breakpoint
CREATE INDEX "tickets_user_id_idx" ON "tickets" USING btree ("user_id") WHERE "tickets"."user_id" is not null;--> statement-breakpoint
CREATE INDEX "tickets_queue_id_idx" ON "tickets" USING btree ("queue_id") WHERE "tickets"."queue_id" is not null;--> statement-breakpoint
CREATE INDEX "tickets_prompt_id_idx" ON "tickets" USING btree ("prompt_id") WHERE "tickets"."prompt_id" is not null;--> statement-breakpoint
CREATE INDEX "tickets_integration_id_idx" ON "tickets" USING btree ("integration_id") WHERE "tickets"."integration_id" is not null;--> statement-breakpoint
CREATE INDEX "tickets_queue_option_id_idx" ON "tickets" USING btree ("queue_option_id") WHERE "tickets"."queue_option_id" is not null;