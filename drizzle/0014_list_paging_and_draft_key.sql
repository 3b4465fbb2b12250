DROP INDEX "audit_log_actor_idx";--> statement-breakpoint
DROP INDEX "audit_log_at_idx";--> statement-breakpoint
DROP INDEX "audit_log_action_idx";--> statement-breakpoint
DROP INDEX "audit_log_target_idx";--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "row_no" bigint;--> statement-breakpoint
ALTER TABLE "note_drafts" ADD COLUMN "blocks_key" text;--> statement-breakpoint
-- hand-written below: keep when regenerating
-- Existing records are numbered in chain order. The append-only trigger is set aside for this one
-- statement inside the migration's transaction; row_no is not part of any record's hash.
ALTER TABLE "audit_log" DISABLE TRIGGER "audit_log_no_update_delete";--> statement-breakpoint
UPDATE "audit_log" AS a SET "row_no" = n.row_no
  FROM (SELECT "seq", row_number() OVER (ORDER BY "seq") AS row_no FROM "audit_log") AS n
  WHERE a."seq" = n."seq";--> statement-breakpoint
ALTER TABLE "audit_log" ENABLE TRIGGER "audit_log_no_update_delete";--> statement-breakpoint
ALTER TABLE "audit_log" ALTER COLUMN "row_no" SET NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "audit_log_row_no_unique" ON "audit_log" USING btree ("row_no");--> statement-breakpoint
CREATE INDEX "audit_log_actor_no_idx" ON "audit_log" USING btree ("actor_user_no","seq");--> statement-breakpoint
CREATE INDEX "audit_log_at_idx" ON "audit_log" USING btree ("at","seq");--> statement-breakpoint
CREATE INDEX "audit_log_action_idx" ON "audit_log" USING btree ("action","seq");--> statement-breakpoint
CREATE INDEX "audit_log_target_idx" ON "audit_log" USING btree ("target_type","target_id","seq");
