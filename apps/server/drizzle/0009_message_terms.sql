CREATE TABLE "message_terms" (
	"company_id" integer NOT NULL,
	"term" text NOT NULL,
	"message_id" bigint NOT NULL,
	"ticket_id" integer NOT NULL,
	CONSTRAINT "message_terms_pkey" PRIMARY KEY("company_id","term","message_id","ticket_id")
);
--> statement-breakpoint
DROP INDEX "messages_company_id_ticket_id_idx";--> statement-breakpoint
DROP INDEX "messages_body_fts_idx";--> statement-breakpoint
-- The words of a message, as ticket search matches them: the distinct tokens of the
-- `simple` full-text configuration (lowercased, no stemming, no stop words).
CREATE FUNCTION "message_words"(body text) RETURNS text[] LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN tsvector_to_array(to_tsvector('simple', body));--> statement-breakpoint
-- New messages add their words, once per statement (an ingest batch is one
-- statement), in key order.
CREATE FUNCTION "message_terms_add"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO message_terms (company_id, term, message_id, ticket_id)
  SELECT m.company_id, w.term, m.id, m.ticket_id
  FROM new_messages m CROSS JOIN LATERAL unnest(message_words(m.body)) AS w(term)
  ORDER BY 1, 2, 3;
  RETURN NULL;
END $$;--> statement-breakpoint
-- An edited message (or one moved to another ticket) replaces its words.
CREATE FUNCTION "message_terms_edit"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM message_terms
  WHERE company_id = OLD.company_id AND term = ANY (message_words(OLD.body)) AND message_id = OLD.id;
  INSERT INTO message_terms (company_id, term, message_id, ticket_id)
  SELECT NEW.company_id, w.term, NEW.id, NEW.ticket_id FROM unnest(message_words(NEW.body)) AS w(term);
  RETURN NULL;
END $$;--> statement-breakpoint
-- Deleted messages (a ticket, contact or company deleted) take their words along.
CREATE FUNCTION "message_terms_remove"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM message_terms mt
  USING (SELECT o.company_id, w.term, o.id FROM old_messages o CROSS JOIN LATERAL unnest(message_words(o.body)) AS w(term)) g
  WHERE mt.company_id = g.company_id AND mt.term = g.term AND mt.message_id = g.id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "messages_terms_insert" AFTER INSERT ON "messages"
  REFERENCING NEW TABLE AS new_messages FOR EACH STATEMENT EXECUTE FUNCTION message_terms_add();--> statement-breakpoint
CREATE TRIGGER "messages_terms_edit" AFTER UPDATE OF "body", "ticket_id", "company_id" ON "messages"
  FOR EACH ROW WHEN (OLD.body IS DISTINCT FROM NEW.body OR OLD.ticket_id <> NEW.ticket_id OR OLD.company_id <> NEW.company_id)
  EXECUTE FUNCTION message_terms_edit();--> statement-breakpoint
CREATE TRIGGER "messages_terms_delete" AFTER DELETE ON "messages"
  REFERENCING OLD TABLE AS old_messages FOR EACH STATEMENT EXECUTE FUNCTION message_terms_remove();--> statement-breakpoint
-- Fills the table from the stored messages: here, and after a bulk load that ran with
-- the insert trigger disabled (the bench seed, which runs `lanes` calls side by side,
-- each for the messages whose id modulo `lanes` is its `lane`).
CREATE FUNCTION "message_terms_backfill"(lanes int DEFAULT 1, lane int DEFAULT 0) RETURNS void LANGUAGE sql AS $$
  INSERT INTO message_terms (company_id, term, message_id, ticket_id)
  SELECT m.company_id, w.term, m.id, m.ticket_id FROM messages m CROSS JOIN LATERAL unnest(message_words(m.body)) AS w(term)
  WHERE m.id % lanes = lane
  ON CONFLICT DO NOTHING;
$$;--> statement-breakpoint
SELECT message_terms_backfill();
