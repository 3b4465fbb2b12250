CREATE TABLE "signature_reminders" (
	"reminder_id" serial PRIMARY KEY NOT NULL,
	"signature_id" integer NOT NULL,
	"reminded_by_user_no" integer NOT NULL,
	"reminded_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "signature_reminders" ADD CONSTRAINT "signature_reminders_signature_id_note_signatures_signature_id_fk" FOREIGN KEY ("signature_id") REFERENCES "public"."note_signatures"("signature_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signature_reminders" ADD CONSTRAINT "signature_reminders_reminded_by_user_no_users_user_no_fk" FOREIGN KEY ("reminded_by_user_no") REFERENCES "public"."users"("user_no") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "signature_reminders_signature_idx" ON "signature_reminders" USING btree ("signature_id","reminded_at");