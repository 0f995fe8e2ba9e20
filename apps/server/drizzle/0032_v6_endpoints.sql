CREATE TABLE "holiday_periods" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "holiday_periods_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"company_id" integer NOT NULL,
	"whatsapp_id" integer NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date NOT NULL,
	"message" text DEFAULT '' NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"repeat_interval_hours" integer DEFAULT 24 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "queues" ADD COLUMN "media_path" text;--> statement-breakpoint
ALTER TABLE "queues" ADD COLUMN "media_name" text;--> statement-breakpoint
ALTER TABLE "whatsapps" ADD COLUMN "greeting_media_path" text;--> statement-breakpoint
ALTER TABLE "whatsapps" ADD COLUMN "greeting_media_name" text;--> statement-breakpoint
ALTER TABLE "holiday_periods" ADD CONSTRAINT "holiday_periods_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "holiday_periods" ADD CONSTRAINT "holiday_periods_whatsapp_id_whatsapps_id_fk" FOREIGN KEY ("whatsapp_id") REFERENCES "public"."whatsapps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "holiday_periods_company_id_whatsapp_id_idx" ON "holiday_periods" USING btree ("company_id","whatsapp_id","start_date");--> statement-breakpoint
CREATE INDEX "holiday_periods_whatsapp_id_idx" ON "holiday_periods" USING btree ("whatsapp_id","end_date");--> statement-breakpoint
CREATE INDEX "tickets_company_id_created_at_idx" ON "tickets" USING btree ("company_id","created_at");