CREATE TABLE "lab_note_counters" (
	"year" integer PRIMARY KEY NOT NULL,
	"last_number" integer NOT NULL
);
--> statement-breakpoint
DROP SEQUENCE "public"."lab_note_number_seq";--> statement-breakpoint
-- hand-written below: keep when regenerating
-- The series goes on from the highest number each year already has.
INSERT INTO "lab_note_counters" ("year", "last_number") SELECT split_part("lab_note_number", '-', 2)::integer, max(split_part("lab_note_number", '-', 3)::integer) FROM "lab_notes" GROUP BY 1;
