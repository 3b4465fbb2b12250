-- The home's sections at scale (server/src/inbox): the requests still asked of each signer, and the notes
-- each person writes or co-writes.
CREATE INDEX "note_signatures_pending_signer_idx" ON "note_signatures" USING btree ("user_no","created_at") WHERE "note_signatures"."status" = 'R' and "note_signatures"."removed_at" is null;--> statement-breakpoint
CREATE INDEX "note_writers_user_idx" ON "note_writers" USING btree ("user_no","note_no");