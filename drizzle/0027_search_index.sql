CREATE TABLE "search_queue" (
	"document_name" text PRIMARY KEY NOT NULL,
	"seq" bigserial NOT NULL
);
--> statement-breakpoint
CREATE TABLE "search_units" (
	"kind" text NOT NULL,
	"record_no" integer NOT NULL,
	"block_uid" text NOT NULL,
	"project_no" integer NOT NULL,
	"block_order" integer NOT NULL,
	"text" text NOT NULL,
	"vector" "tsvector" NOT NULL,
	"indexed_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "search_units_kind_record_no_block_uid_pk" PRIMARY KEY("kind","record_no","block_uid")
);
--> statement-breakpoint
CREATE INDEX "search_units_vector_idx" ON "search_units" USING gin ("vector");--> statement-breakpoint
CREATE INDEX "search_units_project_idx" ON "search_units" USING btree ("project_no");--> statement-breakpoint
CREATE FUNCTION search_queue_documents() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO search_queue (document_name)
    SELECT DISTINCT document_name FROM stored_updates
    ON CONFLICT (document_name) DO UPDATE SET seq = excluded.seq;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER search_queue_documents AFTER INSERT ON document_updates
  REFERENCING NEW TABLE AS stored_updates FOR EACH STATEMENT EXECUTE FUNCTION search_queue_documents();--> statement-breakpoint
INSERT INTO search_queue (document_name)
  SELECT document_name FROM document_snapshots UNION SELECT document_name FROM document_updates
  ON CONFLICT (document_name) DO NOTHING;
