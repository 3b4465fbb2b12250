ALTER TABLE "export_jobs" ADD COLUMN "note_no" integer;--> statement-breakpoint
ALTER TABLE "export_jobs" ADD COLUMN "version" integer;--> statement-breakpoint
ALTER TABLE "export_jobs" ADD COLUMN "pdf_a" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "export_jobs" ADD CONSTRAINT "export_jobs_note_no_lab_notes_note_no_fk" FOREIGN KEY ("note_no") REFERENCES "public"."lab_notes"("note_no") ON DELETE no action ON UPDATE no action;