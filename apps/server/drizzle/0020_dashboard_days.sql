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
	CONSTRAINT "ticket_cycle_days_company_id_day_user_id_queue_id_whatsapp_id_pk" PRIMARY KEY("company_id","day","user_id","queue_id","whatsapp_id")
);
--> statement-breakpoint
CREATE TABLE "ticket_cycle_frt" (
	"company_id" integer NOT NULL,
	"day" date NOT NULL,
	"queue_id" integer DEFAULT 0 NOT NULL,
	"whatsapp_id" integer DEFAULT 0 NOT NULL,
	"bucket" integer NOT NULL,
	"n" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "ticket_cycle_frt_company_id_day_queue_id_whatsapp_id_bucket_pk" PRIMARY KEY("company_id","day","queue_id","whatsapp_id","bucket")
);
--> statement-breakpoint
-- Rows updated in place all day long: room in each page keeps the updates HOT.
ALTER TABLE "ticket_cycle_days" SET (fillfactor = 50);--> statement-breakpoint
ALTER TABLE "ticket_cycle_frt" SET (fillfactor = 50);--> statement-breakpoint
-- The first-response histogram's bucket (0-based) for a number of seconds: a minute
-- each under an hour, 15 minutes each up to 8 hours, 2 hours each up to 48 hours,
-- then one bucket (dashboard.service.ts FRT_BUCKETS reads them back).
CREATE FUNCTION "frt_bucket"(seconds double precision) RETURNS int LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN CASE WHEN seconds < 3600 THEN floor(greatest(seconds, 0) / 60)::int
    WHEN seconds < 28800 THEN 60 + floor((seconds - 3600) / 900)::int
    WHEN seconds < 172800 THEN 88 + floor((seconds - 28800) / 7200)::int
    ELSE 108 END;--> statement-breakpoint
-- The statement that adds the rows of `changed` (cycles with a `delta` of 1 or -1) to
-- their days' totals and first-response counts, one upsert per row of each, in key
-- order: concurrent writers lock them in the same order and never deadlock each other.
CREATE FUNCTION "ticket_cycle_days_sql"(changed text) RETURNS text LANGUAGE sql IMMUTABLE
  RETURN format($q$
  WITH changed AS (%s),
  ch AS (
    SELECT r.company_id, (r.queued_at AT TIME ZONE coalesce(co.timezone, 'America/Sao_Paulo'))::date AS day,
      coalesce(r.user_id, 0) AS user_id, coalesce(r.queue_id, 0) AS queue_id, coalesce(r.whatsapp_id, 0) AS whatsapp_id,
      r.delta, r.queued_at, r.started_at, r.first_response_at, r.finished_at, r.rating
    FROM changed r LEFT JOIN companies co ON co.id = r.company_id
  ),
  sums AS (
    SELECT company_id, day, user_id, queue_id, whatsapp_id,
      sum(delta)::int AS queued,
      sum(CASE WHEN started_at IS NOT NULL AND finished_at IS NULL THEN delta ELSE 0 END)::int AS happening,
      sum(CASE WHEN started_at IS NULL AND finished_at IS NULL THEN delta ELSE 0 END)::int AS pending,
      sum(CASE WHEN finished_at IS NOT NULL THEN delta ELSE 0 END)::int AS finished,
      sum(CASE WHEN finished_at IS NOT NULL AND started_at IS NOT NULL THEN delta * extract(epoch FROM finished_at - started_at) ELSE 0 END)::float8 AS support_seconds,
      sum(CASE WHEN finished_at IS NOT NULL AND started_at IS NOT NULL THEN delta ELSE 0 END)::int AS support_count,
      sum(CASE WHEN started_at IS NOT NULL THEN delta * extract(epoch FROM started_at - queued_at) ELSE 0 END)::float8 AS wait_seconds,
      sum(CASE WHEN started_at IS NOT NULL THEN delta ELSE 0 END)::int AS wait_count,
      sum(CASE WHEN rating = 1 THEN delta ELSE 0 END)::int AS rated_1,
      sum(CASE WHEN rating = 2 THEN delta ELSE 0 END)::int AS rated_2,
      sum(CASE WHEN rating = 3 THEN delta ELSE 0 END)::int AS rated_3,
      sum(CASE WHEN rating IS NOT NULL AND finished_at IS NOT NULL THEN delta ELSE 0 END)::int AS rated_finished
    FROM ch GROUP BY 1, 2, 3, 4, 5
  ),
  frt AS (
    INSERT INTO ticket_cycle_frt AS f (company_id, day, queue_id, whatsapp_id, bucket, n)
    SELECT company_id, day, queue_id, whatsapp_id, frt_bucket(extract(epoch FROM first_response_at - queued_at)), sum(delta)::int
    FROM ch WHERE first_response_at IS NOT NULL
    GROUP BY 1, 2, 3, 4, 5 HAVING sum(delta) <> 0 ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT (company_id, day, queue_id, whatsapp_id, bucket) DO UPDATE SET n = f.n + excluded.n
    RETURNING 1
  )
  INSERT INTO ticket_cycle_days AS d (company_id, day, user_id, queue_id, whatsapp_id, queued, happening, pending, finished,
    support_seconds, support_count, wait_seconds, wait_count, rated_1, rated_2, rated_3, rated_finished)
  SELECT s.company_id, s.day, s.user_id, s.queue_id, s.whatsapp_id, s.queued, s.happening, s.pending, s.finished,
    s.support_seconds, s.support_count, s.wait_seconds, s.wait_count, s.rated_1, s.rated_2, s.rated_3, s.rated_finished
  FROM sums s
  -- A change that moves nothing (an update within the same bucket and state) writes nothing.
  WHERE (s.queued, s.happening, s.pending, s.finished, s.support_count, s.wait_count, s.rated_1, s.rated_2, s.rated_3, s.rated_finished) <> (0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    OR s.support_seconds <> 0 OR s.wait_seconds <> 0
  ORDER BY s.company_id, s.day, s.user_id, s.queue_id, s.whatsapp_id
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
    rated_finished = d.rated_finished + excluded.rated_finished
  $q$, changed);--> statement-breakpoint
-- One statement's cycles, added (insert), moved (update: the old share out, the new in) or taken away (delete).
CREATE FUNCTION "ticket_cycle_days_statement"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    EXECUTE ticket_cycle_days_sql('SELECT n.*, 1 AS delta FROM new_cycles n');
  ELSIF TG_OP = 'UPDATE' THEN
    EXECUTE ticket_cycle_days_sql('SELECT o.*, -1 AS delta FROM old_cycles o UNION ALL SELECT n.*, 1 AS delta FROM new_cycles n');
  ELSE
    EXECUTE ticket_cycle_days_sql('SELECT o.*, -1 AS delta FROM old_cycles o');
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "ticket_cycle_days_insert" AFTER INSERT ON "ticket_cycles" REFERENCING NEW TABLE AS new_cycles
  FOR EACH STATEMENT EXECUTE FUNCTION "ticket_cycle_days_statement"();--> statement-breakpoint
CREATE TRIGGER "ticket_cycle_days_update" AFTER UPDATE ON "ticket_cycles" REFERENCING OLD TABLE AS old_cycles NEW TABLE AS new_cycles
  FOR EACH STATEMENT EXECUTE FUNCTION "ticket_cycle_days_statement"();--> statement-breakpoint
CREATE TRIGGER "ticket_cycle_days_delete" AFTER DELETE ON "ticket_cycles" REFERENCING OLD TABLE AS old_cycles
  FOR EACH STATEMENT EXECUTE FUNCTION "ticket_cycle_days_statement"();--> statement-breakpoint
-- New contacts per day (groups are not a person), the same way.
CREATE FUNCTION "contact_days_sql"(changed text) RETURNS text LANGUAGE sql IMMUTABLE
  RETURN format($q$
  WITH changed AS (%s)
  INSERT INTO contact_days AS d (company_id, day, whatsapp_id, created)
  SELECT r.company_id, (r.created_at AT TIME ZONE coalesce(co.timezone, 'America/Sao_Paulo'))::date, coalesce(r.whatsapp_id, 0), sum(r.delta)::int
  FROM changed r LEFT JOIN companies co ON co.id = r.company_id
  WHERE NOT r.is_group
  GROUP BY 1, 2, 3 HAVING sum(r.delta) <> 0 ORDER BY 1, 2, 3
  ON CONFLICT (company_id, day, whatsapp_id) DO UPDATE SET created = d.created + excluded.created
  $q$, changed);--> statement-breakpoint
CREATE FUNCTION "contact_days_statement"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    EXECUTE contact_days_sql('SELECT n.company_id, n.created_at, n.whatsapp_id, n.is_group, 1 AS delta FROM new_contacts n');
  ELSIF TG_OP = 'UPDATE' THEN
    EXECUTE contact_days_sql('SELECT o.company_id, o.created_at, o.whatsapp_id, o.is_group, -1 AS delta FROM old_contacts o
      UNION ALL SELECT n.company_id, n.created_at, n.whatsapp_id, n.is_group, 1 AS delta FROM new_contacts n');
  ELSE
    EXECUTE contact_days_sql('SELECT o.company_id, o.created_at, o.whatsapp_id, o.is_group, -1 AS delta FROM old_contacts o');
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "contact_days_insert" AFTER INSERT ON "contacts" REFERENCING NEW TABLE AS new_contacts
  FOR EACH STATEMENT EXECUTE FUNCTION "contact_days_statement"();--> statement-breakpoint
CREATE TRIGGER "contact_days_update" AFTER UPDATE ON "contacts" REFERENCING OLD TABLE AS old_contacts NEW TABLE AS new_contacts
  FOR EACH STATEMENT EXECUTE FUNCTION "contact_days_statement"();--> statement-breakpoint
CREATE TRIGGER "contact_days_delete" AFTER DELETE ON "contacts" REFERENCING OLD TABLE AS old_contacts
  FOR EACH STATEMENT EXECUTE FUNCTION "contact_days_statement"();--> statement-breakpoint
-- A company's daily totals from its cycles and contacts (at first, and when its time zone changes).
CREATE FUNCTION "dashboard_days_rebuild"(company int) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM ticket_cycle_days WHERE company_id = company;
  DELETE FROM ticket_cycle_frt WHERE company_id = company;
  DELETE FROM contact_days WHERE company_id = company;
  EXECUTE ticket_cycle_days_sql(format('SELECT c.*, 1 AS delta FROM ticket_cycles c WHERE c.company_id = %s', company));
  EXECUTE contact_days_sql(format('SELECT k.company_id, k.created_at, k.whatsapp_id, k.is_group, 1 AS delta FROM contacts k WHERE k.company_id = %s', company));
END $$;--> statement-breakpoint
CREATE FUNCTION "dashboard_days_timezone"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM dashboard_days_rebuild(NEW.id);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "dashboard_days_timezone" AFTER UPDATE OF "timezone" ON "companies"
  FOR EACH ROW WHEN (OLD.timezone IS DISTINCT FROM NEW.timezone) EXECUTE FUNCTION "dashboard_days_timezone"();--> statement-breakpoint
SELECT dashboard_days_rebuild(id) FROM companies;
