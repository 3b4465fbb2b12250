CREATE TABLE "file_text_parts" (
	"sha256" text NOT NULL,
	"part" integer NOT NULL,
	"text" text NOT NULL,
	"vector" "tsvector" NOT NULL,
	CONSTRAINT "file_text_parts_sha256_part_pk" PRIMARY KEY("sha256","part")
);
--> statement-breakpoint
CREATE TABLE "file_texts" (
	"sha256" text PRIMARY KEY NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"lease_until" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "search_units" ADD COLUMN "file_id" uuid;--> statement-breakpoint
ALTER TABLE "search_units" ADD COLUMN "file_text" text;--> statement-breakpoint
ALTER TABLE "file_text_parts" ADD CONSTRAINT "file_text_parts_sha256_file_texts_sha256_fk" FOREIGN KEY ("sha256") REFERENCES "public"."file_texts"("sha256") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "file_texts_pending_idx" ON "file_texts" USING btree ("created_at") WHERE "file_texts"."status" = 'pending';--> statement-breakpoint
-- Every stored file content (a file's, not an image's) has its text row, pending until a process extracts it,
-- whatever inserted the file (an upload, a note made from a template, an .eln import): one statement's
-- new files, once per content.
CREATE FUNCTION file_texts_pending() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO file_texts (sha256) SELECT DISTINCT sha256 FROM new_files WHERE kind = 'file' ON CONFLICT (sha256) DO NOTHING;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER file_texts_pending AFTER INSERT ON files REFERENCING NEW TABLE AS new_files FOR EACH STATEMENT EXECUTE FUNCTION file_texts_pending();--> statement-breakpoint
INSERT INTO file_texts (sha256) SELECT DISTINCT sha256 FROM files WHERE kind = 'file' ON CONFLICT (sha256) DO NOTHING;
