CREATE TABLE "note_writers" (
	"note_no" integer NOT NULL,
	"user_no" integer NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "note_writers_note_no_user_no_pk" PRIMARY KEY("note_no","user_no")
);
--> statement-breakpoint
ALTER TABLE "note_writers" ADD CONSTRAINT "note_writers_note_no_lab_notes_note_no_fk" FOREIGN KEY ("note_no") REFERENCES "public"."lab_notes"("note_no") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "note_writers" ADD CONSTRAINT "note_writers_user_no_users_user_no_fk" FOREIGN KEY ("user_no") REFERENCES "public"."users"("user_no") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- hand-written below: keep when regenerating
-- What is known of earlier notes: their creators (later writers are recorded as they write).
INSERT INTO "note_writers" ("note_no", "user_no") SELECT "note_no", "writer_user_no" FROM "lab_notes" ON CONFLICT DO NOTHING;
