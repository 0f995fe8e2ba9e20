CREATE TABLE "user_presence" (
	"company_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"node_id" text NOT NULL,
	"heartbeat_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_presence_user_id_node_id_pk" PRIMARY KEY("user_id","node_id")
);
--> statement-breakpoint
ALTER TABLE "queues" ADD COLUMN "auto_assign" text DEFAULT 'off' NOT NULL;--> statement-breakpoint
ALTER TABLE "queues" ADD COLUMN "default_max_open_tickets" integer DEFAULT 5 NOT NULL;--> statement-breakpoint
ALTER TABLE "queues" ADD COLUMN "assign_cursor_user_id" integer;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "max_open_tickets" integer;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "last_assigned_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "user_presence" ADD CONSTRAINT "user_presence_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_presence" ADD CONSTRAINT "user_presence_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "user_presence_company_id_user_id_idx" ON "user_presence" USING btree ("company_id","user_id");--> statement-breakpoint
CREATE INDEX "user_presence_node_id_idx" ON "user_presence" USING btree ("node_id");--> statement-breakpoint
CREATE INDEX "user_presence_heartbeat_at_idx" ON "user_presence" USING btree ("heartbeat_at");--> statement-breakpoint
ALTER TABLE "queues" ADD CONSTRAINT "queues_auto_assign_ck" CHECK ("queues"."auto_assign" in ('off', 'round_robin', 'balanced'));