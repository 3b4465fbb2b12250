ALTER TABLE "audit_log" ADD COLUMN "action_row_no" bigint;--> statement-breakpoint
-- hand-written below: keep when regenerating
-- Existing records are numbered within their action in chain order. The append-only trigger is set
-- aside for this one statement inside the migration's transaction; action_row_no is not part of any
-- record's hash.
ALTER TABLE "audit_log" DISABLE TRIGGER "audit_log_no_update_delete";--> statement-breakpoint
UPDATE "audit_log" AS a SET "action_row_no" = n.action_row_no
  FROM (SELECT "seq", row_number() OVER (PARTITION BY "action" ORDER BY "seq") AS action_row_no FROM "audit_log") AS n
  WHERE a."seq" = n."seq";--> statement-breakpoint
ALTER TABLE "audit_log" ENABLE TRIGGER "audit_log_no_update_delete";--> statement-breakpoint
ALTER TABLE "audit_log" ALTER COLUMN "action_row_no" SET NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "audit_log_action_row_no_unique" ON "audit_log" USING btree ("action","action_row_no");
