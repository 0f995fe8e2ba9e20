ALTER TABLE "pix_charges" ADD COLUMN "provider" text DEFAULT 'pix' NOT NULL;--> statement-breakpoint
ALTER TABLE "pix_charges" ADD COLUMN "method" text DEFAULT 'PIX' NOT NULL;--> statement-breakpoint
ALTER TABLE "pix_charges" ADD COLUMN "url" text;--> statement-breakpoint
ALTER TABLE "pix_charges" ADD CONSTRAINT "pix_charges_provider_ck" CHECK ("pix_charges"."provider" in ('pix', 'asaas'));--> statement-breakpoint
ALTER TABLE "pix_charges" ADD CONSTRAINT "pix_charges_method_ck" CHECK ("pix_charges"."method" in ('PIX', 'BOLETO', 'CREDIT_CARD'));