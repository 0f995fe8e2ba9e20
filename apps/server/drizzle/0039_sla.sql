CREATE TABLE "ticket_sla_breaches" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "ticket_sla_breaches_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"company_id" integer NOT NULL,
	"ticket_id" integer NOT NULL,
	"kind" text NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"breached_at" timestamp with time zone NOT NULL,
	"user_id" integer,
	"queue_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ticket_sla_breaches_kind_ck" CHECK ("ticket_sla_breaches"."kind" in ('first_response', 'resolution'))
);
--> statement-breakpoint
ALTER TABLE "queues" ADD COLUMN "sla_first_response_minutes" integer;--> statement-breakpoint
ALTER TABLE "queues" ADD COLUMN "sla_resolution_minutes" integer;--> statement-breakpoint
ALTER TABLE "queues" ADD COLUMN "sla_warn_percent" integer DEFAULT 80 NOT NULL;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "sla_started_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "sla_pending" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "sla_first_response_due_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "sla_first_response_warn_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "sla_resolution_due_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "sla_resolution_warn_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "sla_first_responded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "sla_due_at" timestamp with time zone GENERATED ALWAYS AS (case when status = 'closed' then null when sla_first_responded_at is null and sla_first_response_due_at is not null then least(sla_first_response_due_at, sla_resolution_due_at) else sla_resolution_due_at end) STORED;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "sla_warn_at" timestamp with time zone GENERATED ALWAYS AS (case when status = 'closed' then null when sla_first_responded_at is null and sla_first_response_warn_at is not null then least(sla_first_response_warn_at, sla_resolution_warn_at) else sla_resolution_warn_at end) STORED;--> statement-breakpoint
ALTER TABLE "ticket_sla_breaches" ADD CONSTRAINT "ticket_sla_breaches_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_sla_breaches" ADD CONSTRAINT "ticket_sla_breaches_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_sla_breaches" ADD CONSTRAINT "ticket_sla_breaches_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_sla_breaches" ADD CONSTRAINT "ticket_sla_breaches_queue_id_queues_id_fk" FOREIGN KEY ("queue_id") REFERENCES "public"."queues"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "ticket_sla_breaches_ticket_kind_due_uq" ON "ticket_sla_breaches" USING btree ("ticket_id","kind","due_at");--> statement-breakpoint
CREATE INDEX "ticket_sla_breaches_company_id_breached_at_idx" ON "ticket_sla_breaches" USING btree ("company_id","breached_at");--> statement-breakpoint
CREATE INDEX "ticket_sla_breaches_user_id_idx" ON "ticket_sla_breaches" USING btree ("user_id") WHERE "ticket_sla_breaches"."user_id" is not null;--> statement-breakpoint
CREATE INDEX "ticket_sla_breaches_queue_id_idx" ON "ticket_sla_breaches" USING btree ("queue_id") WHERE "ticket_sla_breaches"."queue_id" is not null;--> statement-breakpoint
CREATE INDEX "tickets_company_id_status_sla_due_at_idx" ON "tickets" USING btree ("company_id","status","sla_due_at","id");--> statement-breakpoint
CREATE INDEX "tickets_sla_due_at_idx" ON "tickets" USING btree ("sla_due_at") WHERE "tickets"."sla_due_at" is not null;--> statement-breakpoint
CREATE INDEX "tickets_sla_pending_idx" ON "tickets" USING btree ("id") WHERE "tickets"."sla_pending";--> statement-breakpoint
-- The SLA clocks start in the statement that moves a ticket into a queue (or reopens it), whatever path
-- moved it (ingest, bot, agent, timer, API): the SLA sweep then computes the due instants (sla_pending).
CREATE FUNCTION "tickets_sla_clock"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' OR NEW.queue_id IS DISTINCT FROM OLD.queue_id OR (OLD.status = 'closed' AND NEW.status <> 'closed') THEN
    NEW.sla_started_at := CASE WHEN NEW.queue_id IS NULL OR NEW.status = 'closed' THEN NULL ELSE now() END;
    NEW.sla_pending := NEW.queue_id IS NOT NULL AND NEW.status <> 'closed';
    NEW.sla_first_response_due_at := NULL;
    NEW.sla_first_response_warn_at := NULL;
    NEW.sla_resolution_due_at := NULL;
    NEW.sla_resolution_warn_at := NULL;
    NEW.sla_first_responded_at := NULL;
  END IF;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER "tickets_sla_clock_insert" BEFORE INSERT ON "tickets"
  FOR EACH ROW WHEN (NEW.queue_id IS NOT NULL) EXECUTE FUNCTION "tickets_sla_clock"();--> statement-breakpoint
CREATE TRIGGER "tickets_sla_clock_update" BEFORE UPDATE OF "queue_id", "status" ON "tickets"
  FOR EACH ROW EXECUTE FUNCTION "tickets_sla_clock"();--> statement-breakpoint
-- The first response: the first message an agent sends (from the app or the phone; not the bot's nor a
-- notice) while the ticket's clock runs.
CREATE FUNCTION "tickets_sla_first_response"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "tickets" SET "sla_first_responded_at" = NEW.created_at
    WHERE "id" = NEW.ticket_id AND "sla_started_at" IS NOT NULL AND "sla_first_responded_at" IS NULL;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "messages_sla_first_response" AFTER INSERT ON "messages"
  FOR EACH ROW WHEN (NEW.source IN ('agent', 'phone')) EXECUTE FUNCTION "tickets_sla_first_response"();
