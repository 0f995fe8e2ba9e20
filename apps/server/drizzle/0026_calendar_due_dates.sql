-- Due dates become calendar dates (DECISIONS 15). A stored instant becomes the day
-- it falls on in the company's time zone; an instant at exactly midnight UTC was
-- written from a date alone (an API client's 'YYYY-MM-DD', the no-expiry
-- 2999-12-31), so it keeps that date. Invoices were made with their company's due
-- date, so both are converted by the same rule and still match.
ALTER TABLE "invoices" ADD COLUMN "due_day" date;--> statement-breakpoint
UPDATE "invoices" AS i SET "due_day" = CASE
    WHEN (i."due_date" AT TIME ZONE 'UTC')::time = time '00:00' THEN (i."due_date" AT TIME ZONE 'UTC')::date
    ELSE (i."due_date" AT TIME ZONE c."timezone")::date
  END
  FROM "companies" AS c WHERE c."id" = i."company_id";--> statement-breakpoint
-- Two invoices of one company on one day (the due date was moved within the day): the paid one, else the first, stays.
DELETE FROM "invoices" AS i WHERE i."status" = 'open' AND EXISTS (
  SELECT 1 FROM "invoices" AS o
  WHERE o."company_id" = i."company_id" AND o."due_day" = i."due_day" AND o."id" <> i."id"
    AND (o."status" = 'paid' OR o."id" < i."id")
);--> statement-breakpoint
ALTER TABLE "invoices" ALTER COLUMN "due_date" SET DATA TYPE date USING "due_day";--> statement-breakpoint
ALTER TABLE "invoices" DROP COLUMN "due_day";--> statement-breakpoint
ALTER TABLE "companies" ALTER COLUMN "due_date" SET DATA TYPE date USING CASE
    WHEN ("due_date" AT TIME ZONE 'UTC')::time = time '00:00' THEN ("due_date" AT TIME ZONE 'UTC')::date
    ELSE ("due_date" AT TIME ZONE "timezone")::date
  END;--> statement-breakpoint
ALTER TABLE "companies" ALTER COLUMN "trial_expiration" SET DATA TYPE date USING CASE
    WHEN ("trial_expiration" AT TIME ZONE 'UTC')::time = time '00:00' THEN ("trial_expiration" AT TIME ZONE 'UTC')::date
    ELSE ("trial_expiration" AT TIME ZONE "timezone")::date
  END;
