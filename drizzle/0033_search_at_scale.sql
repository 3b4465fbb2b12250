-- The words' index in three parts by kind (notes, attachments, and the records' existing one): each kind's
-- part of a search reads its own. And the notes' columns search filters by (docs/decisions.md "Search").
DROP INDEX "search_units_vector_idx";--> statement-breakpoint
CREATE INDEX "lab_notes_writer_idx" ON "lab_notes" USING btree ("writer_user_no");--> statement-breakpoint
CREATE INDEX "lab_notes_status_created_idx" ON "lab_notes" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "lab_notes_created_idx" ON "lab_notes" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "search_units_notes_vector_idx" ON "search_units" USING gin ("vector") WHERE "search_units"."kind" = 'note';--> statement-breakpoint
CREATE INDEX "search_units_files_vector_idx" ON "search_units" USING gin ("vector") WHERE "search_units"."kind" = 'file';