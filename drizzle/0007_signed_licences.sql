-- hand-written (keep when regenerating; must run first): a licence row from before keys were signed has no key
-- to check, so it is not a licence: the notebook is back in evaluation mode until a signed key is registered.
DELETE FROM "licences";--> statement-breakpoint
ALTER TABLE "licences" ADD COLUMN "licence_key" text NOT NULL;--> statement-breakpoint
ALTER TABLE "licences" ADD COLUMN "key_id" text NOT NULL;--> statement-breakpoint
ALTER TABLE "licences" ADD COLUMN "product" text NOT NULL;--> statement-breakpoint
ALTER TABLE "licences" ADD COLUMN "max_version" text NOT NULL;--> statement-breakpoint
ALTER TABLE "licences" ADD COLUMN "issued_at" timestamp (3) with time zone NOT NULL;--> statement-breakpoint
ALTER TABLE "licences" ADD COLUMN "starts_at" timestamp (3) with time zone NOT NULL;--> statement-breakpoint
ALTER TABLE "licences" ADD COLUMN "last_seen_at" timestamp (3) with time zone DEFAULT now() NOT NULL;