CREATE INDEX "contact_extra_info_contact_id_idx" ON "contact_extra_info" USING btree ("contact_id");--> statement-breakpoint
CREATE INDEX "queue_options_queue_id_idx" ON "queue_options" USING btree ("queue_id");--> statement-breakpoint
CREATE INDEX "refresh_tokens_user_id_idx" ON "refresh_tokens" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "sandbox_outbox_whatsapp_id_idx" ON "sandbox_outbox" USING btree ("whatsapp_id");--> statement-breakpoint
CREATE INDEX "ticket_notes_contact_id_idx" ON "ticket_notes" USING btree ("contact_id");--> statement-breakpoint
CREATE INDEX "ticket_tags_tag_id_idx" ON "ticket_tags" USING btree ("tag_id");--> statement-breakpoint
CREATE INDEX "user_queues_queue_id_idx" ON "user_queues" USING btree ("queue_id");--> statement-breakpoint
CREATE INDEX "users_whatsapp_id_idx" ON "users" USING btree ("whatsapp_id") WHERE "users"."whatsapp_id" is not null;--> statement-breakpoint
CREATE INDEX "whatsapp_queues_queue_id_idx" ON "whatsapp_queues" USING btree ("queue_id");