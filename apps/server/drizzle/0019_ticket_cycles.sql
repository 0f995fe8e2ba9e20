CREATE TABLE "ticket_cycles" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "ticket_cycles_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"company_id" integer NOT NULL,
	"ticket_id" integer NOT NULL,
	"contact_id" integer,
	"whatsapp_id" integer,
	"queue_id" integer,
	"user_id" integer,
	"queued_at" timestamp with time zone NOT NULL,
	"started_at" timestamp with time zone,
	"first_response_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"rated_at" timestamp with time zone,
	"rating" integer,
	"transfers" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "ticket_cycles_rating_ck" CHECK ("ticket_cycles"."rating" between 1 and 3)
);
--> statement-breakpoint
CREATE TABLE "ticket_transfers" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "ticket_transfers_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"company_id" integer NOT NULL,
	"cycle_id" bigint NOT NULL,
	"from_queue_id" integer,
	"to_queue_id" integer,
	"from_user_id" integer,
	"to_user_id" integer,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ticket_cycles" ADD CONSTRAINT "ticket_cycles_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_cycles" ADD CONSTRAINT "ticket_cycles_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_cycles" ADD CONSTRAINT "ticket_cycles_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_cycles" ADD CONSTRAINT "ticket_cycles_whatsapp_id_whatsapps_id_fk" FOREIGN KEY ("whatsapp_id") REFERENCES "public"."whatsapps"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_cycles" ADD CONSTRAINT "ticket_cycles_queue_id_queues_id_fk" FOREIGN KEY ("queue_id") REFERENCES "public"."queues"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_cycles" ADD CONSTRAINT "ticket_cycles_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_transfers" ADD CONSTRAINT "ticket_transfers_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_transfers" ADD CONSTRAINT "ticket_transfers_cycle_id_ticket_cycles_id_fk" FOREIGN KEY ("cycle_id") REFERENCES "public"."ticket_cycles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_transfers" ADD CONSTRAINT "ticket_transfers_from_queue_id_queues_id_fk" FOREIGN KEY ("from_queue_id") REFERENCES "public"."queues"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_transfers" ADD CONSTRAINT "ticket_transfers_to_queue_id_queues_id_fk" FOREIGN KEY ("to_queue_id") REFERENCES "public"."queues"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_transfers" ADD CONSTRAINT "ticket_transfers_from_user_id_users_id_fk" FOREIGN KEY ("from_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_transfers" ADD CONSTRAINT "ticket_transfers_to_user_id_users_id_fk" FOREIGN KEY ("to_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ticket_cycles_company_id_queued_at_idx" ON "ticket_cycles" USING btree ("company_id","queued_at");--> statement-breakpoint
CREATE INDEX "ticket_cycles_ticket_id_idx" ON "ticket_cycles" USING btree ("ticket_id","id");--> statement-breakpoint
CREATE INDEX "ticket_cycles_contact_id_idx" ON "ticket_cycles" USING btree ("contact_id");--> statement-breakpoint
CREATE INDEX "ticket_cycles_whatsapp_id_idx" ON "ticket_cycles" USING btree ("whatsapp_id");--> statement-breakpoint
CREATE INDEX "ticket_cycles_queue_id_idx" ON "ticket_cycles" USING btree ("queue_id");--> statement-breakpoint
CREATE INDEX "ticket_cycles_user_id_idx" ON "ticket_cycles" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "ticket_transfers_cycle_id_idx" ON "ticket_transfers" USING btree ("cycle_id");--> statement-breakpoint
CREATE INDEX "ticket_transfers_company_id_at_idx" ON "ticket_transfers" USING btree ("company_id","at");--> statement-breakpoint
CREATE INDEX "ticket_transfers_from_queue_id_idx" ON "ticket_transfers" USING btree ("from_queue_id");--> statement-breakpoint
CREATE INDEX "ticket_transfers_to_queue_id_idx" ON "ticket_transfers" USING btree ("to_queue_id");--> statement-breakpoint
CREATE INDEX "ticket_transfers_from_user_id_idx" ON "ticket_transfers" USING btree ("from_user_id");--> statement-breakpoint
CREATE INDEX "ticket_transfers_to_user_id_idx" ON "ticket_transfers" USING btree ("to_user_id");--> statement-breakpoint
-- Cycles of the tickets that exist before this migration, best effort: queued when the
-- ticket was created, started at the first agent message (or at creation when an agent
-- holds it without having written), finished at its last change when closed, rated by
-- its stored rating. Transfers before this migration are not known.
INSERT INTO "ticket_cycles" ("company_id", "ticket_id", "contact_id", "whatsapp_id", "queue_id", "user_id", "queued_at", "started_at", "first_response_at", "finished_at", "rated_at", "rating")
SELECT t."company_id", t."id", t."contact_id", t."whatsapp_id", t."queue_id", t."user_id", t."created_at",
  CASE WHEN t."user_id" IS NOT NULL AND t."status" <> 'pending' THEN coalesce(fr.at, t."created_at") END,
  fr.at,
  CASE WHEN t."status" = 'closed' THEN t."updated_at" END,
  r."created_at", r."rate"
FROM "tickets" t
LEFT JOIN LATERAL (SELECT min(m."created_at") AS at FROM "messages" m WHERE m."ticket_id" = t."id" AND m."source" = 'agent') fr ON true
LEFT JOIN "user_ratings" r ON r."ticket_id" = t."id"
ORDER BY t."id";--> statement-breakpoint
-- A new ticket opens its first cycle (one statement for a batch of new tickets).
CREATE FUNCTION "ticket_cycles_open"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO ticket_cycles (company_id, ticket_id, contact_id, whatsapp_id, queue_id, user_id, queued_at, started_at, finished_at)
  SELECT t.company_id, t.id, t.contact_id, t.whatsapp_id, t.queue_id, t.user_id, t.created_at,
    CASE WHEN t.status <> 'pending' AND t.user_id IS NOT NULL THEN t.created_at END,
    CASE WHEN t.status = 'closed' THEN t.updated_at END
  FROM new_tickets t ORDER BY t.id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "ticket_cycles_open" AFTER INSERT ON "tickets" REFERENCING NEW TABLE AS new_tickets
  FOR EACH STATEMENT EXECUTE FUNCTION "ticket_cycles_open"();--> statement-breakpoint
-- A ticket's status, agent or queue changed: a reopened ticket starts a new cycle;
-- otherwise its current cycle records the accept (first time an agent takes it), the
-- close, and each transfer (the queue changes, or the ticket goes from one agent to
-- another; a first accept and a bot choosing the first queue are not transfers).
CREATE FUNCTION "ticket_cycles_change"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  current_id bigint;
  transferred boolean;
BEGIN
  IF OLD.status = 'closed' AND NEW.status <> 'closed' THEN
    INSERT INTO ticket_cycles (company_id, ticket_id, contact_id, whatsapp_id, queue_id, user_id, queued_at, started_at)
    VALUES (NEW.company_id, NEW.id, NEW.contact_id, NEW.whatsapp_id, NEW.queue_id, NEW.user_id, now(),
      CASE WHEN NEW.status = 'open' AND NEW.user_id IS NOT NULL THEN now() END);
    RETURN NULL;
  END IF;
  SELECT id INTO current_id FROM ticket_cycles WHERE ticket_id = NEW.id ORDER BY id DESC LIMIT 1;
  IF current_id IS NULL THEN
    RETURN NULL;
  END IF;
  -- A queue or agent that was deleted (the ticket's key set to null) is not a transfer.
  transferred := NEW.status <> 'closed' AND (
    (OLD.queue_id IS NOT NULL AND NEW.queue_id IS NOT NULL AND OLD.queue_id <> NEW.queue_id)
    OR (OLD.user_id IS NOT NULL AND NEW.user_id IS NOT NULL AND OLD.user_id <> NEW.user_id));
  UPDATE ticket_cycles SET
    queue_id = NEW.queue_id,
    whatsapp_id = NEW.whatsapp_id,
    -- A ticket given back keeps its last agent, unless that agent no longer exists.
    user_id = CASE WHEN NEW.user_id IS NOT NULL THEN NEW.user_id
      WHEN EXISTS (SELECT 1 FROM users u WHERE u.id = ticket_cycles.user_id) THEN ticket_cycles.user_id END,
    started_at = CASE WHEN started_at IS NULL AND NEW.status = 'open' AND NEW.user_id IS NOT NULL THEN now() ELSE started_at END,
    finished_at = CASE WHEN NEW.status = 'closed' AND OLD.status <> 'closed' THEN now() ELSE finished_at END,
    transfers = transfers + CASE WHEN transferred THEN 1 ELSE 0 END
  WHERE id = current_id;
  IF transferred THEN
    INSERT INTO ticket_transfers (company_id, cycle_id, from_queue_id, to_queue_id, from_user_id, to_user_id)
    VALUES (NEW.company_id, current_id, OLD.queue_id, NEW.queue_id, OLD.user_id, NEW.user_id);
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "ticket_cycles_change" AFTER UPDATE OF "status", "user_id", "queue_id" ON "tickets"
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.user_id IS DISTINCT FROM NEW.user_id OR OLD.queue_id IS DISTINCT FROM NEW.queue_id)
  EXECUTE FUNCTION "ticket_cycles_change"();--> statement-breakpoint
-- The first agent message of a cycle is its first response (bot and system messages never are).
CREATE FUNCTION "ticket_cycles_first_response"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE ticket_cycles c SET first_response_at = m.at
  FROM (SELECT ticket_id, min(created_at) AS at FROM new_agent_messages WHERE source = 'agent' GROUP BY ticket_id) m
  WHERE c.id = (SELECT max(x.id) FROM ticket_cycles x WHERE x.ticket_id = m.ticket_id) AND c.first_response_at IS NULL;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "ticket_cycles_first_response" AFTER INSERT ON "messages" REFERENCING NEW TABLE AS new_agent_messages
  FOR EACH STATEMENT EXECUTE FUNCTION "ticket_cycles_first_response"();--> statement-breakpoint
-- A stored rating rates the ticket's current cycle.
CREATE FUNCTION "ticket_cycles_rated"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE ticket_cycles SET rated_at = NEW.created_at, rating = NEW.rate
  WHERE id = (SELECT max(x.id) FROM ticket_cycles x WHERE x.ticket_id = NEW.ticket_id);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "ticket_cycles_rated" AFTER INSERT ON "user_ratings"
  FOR EACH ROW EXECUTE FUNCTION "ticket_cycles_rated"();
