-- Emptying messages (TRUNCATE, which fires no delete trigger) empties their words too,
-- so no word outlives its message and matches a later ticket that reuses an id.
CREATE FUNCTION "message_terms_clear"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE message_terms;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "messages_terms_truncate" AFTER TRUNCATE ON "messages"
  FOR EACH STATEMENT EXECUTE FUNCTION message_terms_clear();
