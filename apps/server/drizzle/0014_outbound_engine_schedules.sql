CREATE TABLE "campaign_settings" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "campaign_settings_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"company_id" integer NOT NULL,
	"key" text NOT NULL,
	"value" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "outbound_pacing" (
	"whatsapp_id" integer PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"next_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_count" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "outbound_sends" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "outbound_sends_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"company_id" integer NOT NULL,
	"kind" text NOT NULL,
	"source_id" integer NOT NULL,
	"recipient" text NOT NULL,
	"whatsapp_id" integer,
	"contact_id" integer,
	"number" text NOT NULL,
	"conversation" boolean DEFAULT false NOT NULL,
	"ticket_id" integer,
	"message_id" bigint,
	"items" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"reason" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"external_id" text,
	"ack" integer DEFAULT 0 NOT NULL,
	"not_before" timestamp with time zone DEFAULT now() NOT NULL,
	"claimed_at" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"delivered_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "schedules" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "schedules_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"company_id" integer NOT NULL,
	"body" text NOT NULL,
	"contact_id" integer NOT NULL,
	"user_id" integer,
	"send_at" timestamp with time zone NOT NULL,
	"sent_at" timestamp with time zone,
	"status" text DEFAULT 'PENDENTE' NOT NULL,
	"reason" text,
	"whatsapp_id" integer,
	"ticket_id" integer,
	"media_path" text,
	"media_name" text,
	"media_mime" text,
	"media_size" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "campaign_settings" ADD CONSTRAINT "campaign_settings_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbound_pacing" ADD CONSTRAINT "outbound_pacing_whatsapp_id_whatsapps_id_fk" FOREIGN KEY ("whatsapp_id") REFERENCES "public"."whatsapps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbound_pacing" ADD CONSTRAINT "outbound_pacing_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbound_sends" ADD CONSTRAINT "outbound_sends_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbound_sends" ADD CONSTRAINT "outbound_sends_whatsapp_id_whatsapps_id_fk" FOREIGN KEY ("whatsapp_id") REFERENCES "public"."whatsapps"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbound_sends" ADD CONSTRAINT "outbound_sends_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbound_sends" ADD CONSTRAINT "outbound_sends_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedules" ADD CONSTRAINT "schedules_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedules" ADD CONSTRAINT "schedules_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedules" ADD CONSTRAINT "schedules_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedules" ADD CONSTRAINT "schedules_whatsapp_id_whatsapps_id_fk" FOREIGN KEY ("whatsapp_id") REFERENCES "public"."whatsapps"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedules" ADD CONSTRAINT "schedules_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "campaign_settings_company_id_key_uq" ON "campaign_settings" USING btree ("company_id","key");--> statement-breakpoint
CREATE INDEX "outbound_pacing_company_id_idx" ON "outbound_pacing" USING btree ("company_id");--> statement-breakpoint
CREATE UNIQUE INDEX "outbound_sends_source_recipient_uq" ON "outbound_sends" USING btree ("company_id","kind","source_id","recipient");--> statement-breakpoint
CREATE INDEX "outbound_sends_due_idx" ON "outbound_sends" USING btree ("whatsapp_id","not_before","id") WHERE "outbound_sends"."state" = 'queued';--> statement-breakpoint
CREATE INDEX "outbound_sends_queued_idx" ON "outbound_sends" USING btree ("not_before") WHERE "outbound_sends"."state" = 'queued';--> statement-breakpoint
CREATE INDEX "outbound_sends_sending_idx" ON "outbound_sends" USING btree ("claimed_at") WHERE "outbound_sends"."state" = 'sending';--> statement-breakpoint
CREATE INDEX "outbound_sends_external_id_idx" ON "outbound_sends" USING btree ("company_id","whatsapp_id","external_id") WHERE "outbound_sends"."external_id" is not null;--> statement-breakpoint
CREATE INDEX "outbound_sends_whatsapp_id_idx" ON "outbound_sends" USING btree ("whatsapp_id");--> statement-breakpoint
CREATE INDEX "outbound_sends_contact_id_idx" ON "outbound_sends" USING btree ("contact_id");--> statement-breakpoint
CREATE INDEX "outbound_sends_ticket_id_idx" ON "outbound_sends" USING btree ("ticket_id");--> statement-breakpoint
CREATE INDEX "outbound_sends_message_id_idx" ON "outbound_sends" USING btree ("message_id");--> statement-breakpoint
CREATE INDEX "schedules_company_id_send_at_idx" ON "schedules" USING btree ("company_id","send_at","id");--> statement-breakpoint
CREATE INDEX "schedules_pending_idx" ON "schedules" USING btree ("send_at") WHERE "schedules"."status" = 'PENDENTE';--> statement-breakpoint
CREATE INDEX "schedules_contact_id_idx" ON "schedules" USING btree ("contact_id");--> statement-breakpoint
CREATE INDEX "schedules_user_id_idx" ON "schedules" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "schedules_whatsapp_id_idx" ON "schedules" USING btree ("whatsapp_id");--> statement-breakpoint
CREATE INDEX "schedules_ticket_id_idx" ON "schedules" USING btree ("ticket_id");--> statement-breakpoint
CREATE UNIQUE INDEX "sandbox_outbox_external_id_uq" ON "sandbox_outbox" USING btree ("whatsapp_id","external_id");