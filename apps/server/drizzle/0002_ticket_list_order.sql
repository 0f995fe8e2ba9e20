DROP INDEX "tickets_company_id_status_updated_at_idx";--> statement-breakpoint
CREATE INDEX "tickets_list_order_idx" ON "tickets" USING btree ("company_id","status",("unread_messages" > 0),"updated_at","id");--> statement-breakpoint
CREATE INDEX "tickets_company_id_updated_at_idx" ON "tickets" USING btree ("company_id","updated_at");