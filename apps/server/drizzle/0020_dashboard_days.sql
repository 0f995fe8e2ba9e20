CREATE TABLE "contact_days" (
	"company_id" integer NOT NULL,
	"day" date NOT NULL,
	"whatsapp_id" integer DEFAULT 0 NOT NULL,
	"created" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "contact_days_company_id_day_whatsapp_id_pk" PRIMARY KEY("company_id","day","whatsapp_id")
);
--> statement-breakpoint
CREATE TABLE "ticket_cycle_days" (
	"company_id" integer NOT NULL,
	"day" date NOT NULL,
	"user_id" integer DEFAULT 0 NOT NULL,
	"queue_id" integer DEFAULT 0 NOT NULL,
	"whatsapp_id" integer DEFAULT 0 NOT NULL,
	"queued" integer DEFAULT 0 NOT NULL,
	"happening" integer DEFAULT 0 NOT NULL,
	"pending" integer DEFAULT 0 NOT NULL,
	"finished" integer DEFAULT 0 NOT NULL,
	"support_seconds" double precision DEFAULT 0 NOT NULL,
	"support_count" integer DEFAULT 0 NOT NULL,
	"wait_seconds" double precision DEFAULT 0 NOT NULL,
	"wait_count" integer DEFAULT 0 NOT NULL,
	"rated_1" integer DEFAULT 0 NOT NULL,
	"rated_2" integer DEFAULT 0 NOT NULL,
	"rated_3" integer DEFAULT 0 NOT NULL,
	"rated_finished" integer DEFAULT 0 NOT NULL,
	"frt_hist" integer[] NOT NULL,
	CONSTRAINT "ticket_cycle_days_company_id_day_user_id_queue_id_whatsapp_id_pk" PRIMARY KEY("company_id","day","user_id","queue_id","whatsapp_id")
);
--> statement-breakpoint
-- The first-response histogram's bucket (0-based) for a number of seconds: a minute
-- each under an hour, 15 minutes each up to 8 hours, 2 hours each up to 48 hours,
-- then one bucket (dashboard.service.ts FRT_BUCKETS reads them back).
CREATE FUNCTION "frt_bucket"(seconds double precision) RETURNS int LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN CASE WHEN seconds < 3600 THEN floor(greatest(seconds, 0) / 60)::int
    WHEN seconds < 28800 THEN 60 + floor((seconds - 3600) / 900)::int
    WHEN seconds < 172800 THEN 88 + floor((seconds - 28800) / 7200)::int
    ELSE 108 END;--> statement-breakpoint
-- Adds (delta 1) or takes away (delta -1) one cycle's share of its day's totals.
CREATE FUNCTION "ticket_cycle_days_apply"(c ticket_cycles, delta int) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  tz text;
  hist int[] := array_fill(0, ARRAY[109]);
BEGIN
  SELECT timezone INTO tz FROM companies WHERE id = c.company_id;
  IF c.first_response_at IS NOT NULL THEN
    hist[frt_bucket(extract(epoch FROM c.first_response_at - c.queued_at)) + 1] := delta;
  END IF;
  INSERT INTO ticket_cycle_days AS d (company_id, day, user_id, queue_id, whatsapp_id, queued, happening, pending, finished,
    support_seconds, support_count, wait_seconds, wait_count, rated_1, rated_2, rated_3, rated_finished, frt_hist)
  VALUES (c.company_id, (c.queued_at AT TIME ZONE coalesce(tz, 'America/Sao_Paulo'))::date,
    coalesce(c.user_id, 0), coalesce(c.queue_id, 0), coalesce(c.whatsapp_id, 0),
    delta,
    CASE WHEN c.started_at IS NOT NULL AND c.finished_at IS NULL THEN delta ELSE 0 END,
    CASE WHEN c.started_at IS NULL AND c.finished_at IS NULL THEN delta ELSE 0 END,
    CASE WHEN c.finished_at IS NOT NULL THEN delta ELSE 0 END,
    CASE WHEN c.finished_at IS NOT NULL AND c.started_at IS NOT NULL THEN delta * extract(epoch FROM c.finished_at - c.started_at) ELSE 0 END,
    CASE WHEN c.finished_at IS NOT NULL AND c.started_at IS NOT NULL THEN delta ELSE 0 END,
    CASE WHEN c.started_at IS NOT NULL THEN delta * extract(epoch FROM c.started_at - c.queued_at) ELSE 0 END,
    CASE WHEN c.started_at IS NOT NULL THEN delta ELSE 0 END,
    CASE WHEN c.rating = 1 THEN delta ELSE 0 END,
    CASE WHEN c.rating = 2 THEN delta ELSE 0 END,
    CASE WHEN c.rating = 3 THEN delta ELSE 0 END,
    CASE WHEN c.rating IS NOT NULL AND c.finished_at IS NOT NULL THEN delta ELSE 0 END,
    hist)
  ON CONFLICT (company_id, day, user_id, queue_id, whatsapp_id) DO UPDATE SET
    queued = d.queued + excluded.queued,
    happening = d.happening + excluded.happening,
    pending = d.pending + excluded.pending,
    finished = d.finished + excluded.finished,
    support_seconds = d.support_seconds + excluded.support_seconds,
    support_count = d.support_count + excluded.support_count,
    wait_seconds = d.wait_seconds + excluded.wait_seconds,
    wait_count = d.wait_count + excluded.wait_count,
    rated_1 = d.rated_1 + excluded.rated_1,
    rated_2 = d.rated_2 + excluded.rated_2,
    rated_3 = d.rated_3 + excluded.rated_3,
    rated_finished = d.rated_finished + excluded.rated_finished,
    frt_hist = CASE WHEN excluded.frt_hist = array_fill(0, ARRAY[109]) THEN d.frt_hist
      ELSE (SELECT array_agg(a + b ORDER BY i) FROM unnest(d.frt_hist, excluded.frt_hist) WITH ORDINALITY AS x(a, b, i)) END;
END $$;--> statement-breakpoint
CREATE FUNCTION "ticket_cycle_days_row"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN PERFORM ticket_cycle_days_apply(OLD, -1); END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN PERFORM ticket_cycle_days_apply(NEW, 1); END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "ticket_cycle_days_row" AFTER INSERT OR UPDATE OR DELETE ON "ticket_cycles"
  FOR EACH ROW EXECUTE FUNCTION "ticket_cycle_days_row"();--> statement-breakpoint
-- New contacts per day (groups are not contacts of a person).
CREATE FUNCTION "contact_days_apply"(company int, created timestamptz, whatsapp int, is_group boolean, delta int) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  tz text;
BEGIN
  IF is_group THEN RETURN; END IF;
  SELECT timezone INTO tz FROM companies WHERE id = company;
  INSERT INTO contact_days AS d (company_id, day, whatsapp_id, created)
  VALUES (company, (created AT TIME ZONE coalesce(tz, 'America/Sao_Paulo'))::date, coalesce(whatsapp, 0), delta)
  ON CONFLICT (company_id, day, whatsapp_id) DO UPDATE SET created = d.created + excluded.created;
END $$;--> statement-breakpoint
CREATE FUNCTION "contact_days_row"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN PERFORM contact_days_apply(OLD.company_id, OLD.created_at, OLD.whatsapp_id, OLD.is_group, -1); END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN PERFORM contact_days_apply(NEW.company_id, NEW.created_at, NEW.whatsapp_id, NEW.is_group, 1); END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "contact_days_row" AFTER INSERT OR DELETE OR UPDATE OF "created_at", "whatsapp_id", "is_group" ON "contacts"
  FOR EACH ROW EXECUTE FUNCTION "contact_days_row"();--> statement-breakpoint
-- A company's daily totals from its cycles and contacts (at first, and when its time zone changes).
CREATE FUNCTION "dashboard_days_rebuild"(company int) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM ticket_cycle_days WHERE company_id = company;
  DELETE FROM contact_days WHERE company_id = company;
  PERFORM ticket_cycle_days_apply(c, 1) FROM ticket_cycles c WHERE c.company_id = company;
  PERFORM contact_days_apply(k.company_id, k.created_at, k.whatsapp_id, k.is_group, 1) FROM contacts k WHERE k.company_id = company;
END $$;--> statement-breakpoint
CREATE FUNCTION "dashboard_days_timezone"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM dashboard_days_rebuild(NEW.id);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "dashboard_days_timezone" AFTER UPDATE OF "timezone" ON "companies"
  FOR EACH ROW WHEN (OLD.timezone IS DISTINCT FROM NEW.timezone) EXECUTE FUNCTION "dashboard_days_timezone"();--> statement-breakpoint
SELECT dashboard_days_rebuild(id) FROM companies;
