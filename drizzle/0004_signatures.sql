CREATE TABLE "note_signatures" (
	"signature_id" serial PRIMARY KEY NOT NULL,
	"note_no" integer NOT NULL,
	"user_no" integer NOT NULL,
	"type" text NOT NULL,
	"status" text DEFAULT 'R' NOT NULL,
	"requested_by_user_no" integer NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"signed_at" timestamp (3) with time zone,
	"time_zone" text,
	"signed_version" integer,
	"blocks_hash" text,
	"signature_name" text,
	"description" text,
	"removed_at" timestamp (3) with time zone,
	"removed_by_user_no" integer,
	"removed_reason" text
);
--> statement-breakpoint
ALTER TABLE "note_signatures" ADD CONSTRAINT "note_signatures_note_no_lab_notes_note_no_fk" FOREIGN KEY ("note_no") REFERENCES "public"."lab_notes"("note_no") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "note_signatures" ADD CONSTRAINT "note_signatures_user_no_users_user_no_fk" FOREIGN KEY ("user_no") REFERENCES "public"."users"("user_no") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "note_signatures" ADD CONSTRAINT "note_signatures_requested_by_user_no_users_user_no_fk" FOREIGN KEY ("requested_by_user_no") REFERENCES "public"."users"("user_no") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "note_signatures" ADD CONSTRAINT "note_signatures_removed_by_user_no_users_user_no_fk" FOREIGN KEY ("removed_by_user_no") REFERENCES "public"."users"("user_no") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "note_signatures_live_unique" ON "note_signatures" USING btree ("note_no","user_no") WHERE "note_signatures"."removed_at" is null;--> statement-breakpoint
CREATE INDEX "note_signatures_note_idx" ON "note_signatures" USING btree ("note_no");