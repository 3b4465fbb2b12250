CREATE TABLE "note_draft_blocks" (
	"note_no" integer NOT NULL,
	"position" integer NOT NULL,
	"block_deflated" "bytea" NOT NULL,
	CONSTRAINT "note_draft_blocks_note_no_position_pk" PRIMARY KEY("note_no","position")
);
--> statement-breakpoint
ALTER TABLE "note_draft_blocks" ADD CONSTRAINT "note_draft_blocks_note_no_note_drafts_note_no_fk" FOREIGN KEY ("note_no") REFERENCES "public"."note_drafts"("note_no") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- hand-written below: keep when regenerating
-- Existing drafts go: a draft is derived from the note's live document, which is stored apart, so the
-- next temp save of each note writes it again in the new form (the database cannot deflate).
DELETE FROM "note_drafts";--> statement-breakpoint
ALTER TABLE "note_drafts" ADD COLUMN "block_count" integer NOT NULL;--> statement-breakpoint
ALTER TABLE "note_drafts" ALTER COLUMN "blocks_key" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "note_drafts" DROP COLUMN "blocks";
