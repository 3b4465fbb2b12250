ALTER TABLE "search_units" ADD COLUMN "saved_version" integer;--> statement-breakpoint
-- Saved notes are indexed again, so that their units say which saved version holds them.
INSERT INTO search_queue (document_name)
  SELECT 'labnote.' || note_no FROM lab_notes WHERE version > 0 AND deleted_at IS NULL
  ON CONFLICT (document_name) DO NOTHING;
