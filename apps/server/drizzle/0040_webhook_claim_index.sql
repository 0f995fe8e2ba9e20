DROP INDEX "webhook_deliveries_due_idx";--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" USING btree ("next_attempt_at","id") WHERE status = 'pending';