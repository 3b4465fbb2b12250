ALTER TABLE "export_jobs" ADD COLUMN "changes" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "note_versions" ADD COLUMN "restored_from" integer;--> statement-breakpoint
ALTER TABLE "note_versions" ADD COLUMN "reason" text;