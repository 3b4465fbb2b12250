ALTER TABLE "search_units" ALTER COLUMN "project_no" DROP NOT NULL;--> statement-breakpoint
CREATE INDEX "search_units_records_vector_idx" ON "search_units" USING gin ("vector") WHERE "search_units"."kind" in ('project', 'template', 'schema', 'dropbox');--> statement-breakpoint
-- Projects and the libraries are indexed as records `<kind>.<no>`: each statement that changes one of their
-- tables queues the records it touched, in its own transaction (TG_ARGV: the kind, and the record's number
-- as an expression over the changed rows).
CREATE FUNCTION search_queue_records() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format(
    'INSERT INTO search_queue (document_name) SELECT DISTINCT %L || ''.'' || record_no FROM (SELECT %s AS record_no FROM changed_rows) keyed WHERE record_no IS NOT NULL ON CONFLICT (document_name) DO UPDATE SET seq = excluded.seq',
    TG_ARGV[0], TG_ARGV[1]);
  RETURN NULL;
END
$$;--> statement-breakpoint
DO $$
DECLARE
  source record;
BEGIN
  FOR source IN SELECT * FROM (VALUES
    ('projects', 'project', 'project_no'),
    ('templates', 'template', 'template_no'),
    ('dropboxes', 'dropbox', 'dropbox_no'),
    ('dropbox_rows', 'dropbox', 'dropbox_no'),
    ('schema_types', 'schema', 'schemas_type_no'),
    ('schemas', 'schema', 'schemas_type_no'),
    ('schema_entries', 'schema', '(SELECT s.schemas_type_no FROM schemas s WHERE s.schema_no = changed_rows.schema_no)')
  ) AS t(tbl, kind, record_no) LOOP
    EXECUTE format('CREATE TRIGGER search_queue_inserted AFTER INSERT ON %I REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION search_queue_records(%L, %L)', source.tbl, source.kind, source.record_no);
    EXECUTE format('CREATE TRIGGER search_queue_updated AFTER UPDATE ON %I REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION search_queue_records(%L, %L)', source.tbl, source.kind, source.record_no);
    EXECUTE format('CREATE TRIGGER search_queue_deleted AFTER DELETE ON %I REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION search_queue_records(%L, %L)', source.tbl, source.kind, source.record_no);
  END LOOP;
END
$$;--> statement-breakpoint
INSERT INTO search_queue (document_name)
  SELECT 'project.' || project_no FROM projects
  UNION SELECT 'template.' || template_no FROM templates
  UNION SELECT 'dropbox.' || dropbox_no FROM dropboxes
  UNION SELECT 'schema.' || schemas_type_no FROM schema_types
  ON CONFLICT (document_name) DO NOTHING;
