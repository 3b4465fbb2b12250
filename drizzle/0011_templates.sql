CREATE TABLE "template_drafts" (
	"template_no" integer PRIMARY KEY NOT NULL,
	"blocks" jsonb NOT NULL,
	"saved_by_user_no" integer NOT NULL,
	"saved_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "template_revisions" (
	"template_no" integer NOT NULL,
	"revision" integer NOT NULL,
	"blocks" jsonb NOT NULL,
	"blocks_hash" text NOT NULL,
	"document_state" "bytea" NOT NULL,
	"checked_by_user_no" integer NOT NULL,
	"checked_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"version_major" integer,
	"version_minor" integer,
	"approved_by_user_no" integer,
	"approved_at" timestamp (3) with time zone,
	"superseded_at" timestamp (3) with time zone,
	"returned_at" timestamp (3) with time zone,
	"return_reason" text,
	CONSTRAINT "template_revisions_template_no_revision_pk" PRIMARY KEY("template_no","revision")
);
--> statement-breakpoint
CREATE TABLE "templates" (
	"template_no" serial PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"author_user_no" integer NOT NULL,
	"state" text DEFAULT 'D' NOT NULL,
	"revision" integer DEFAULT 0 NOT NULL,
	"approved_revision" integer,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp (3) with time zone
);
--> statement-breakpoint
ALTER TABLE "lab_notes" ADD COLUMN "template_revision" integer;--> statement-breakpoint
ALTER TABLE "template_drafts" ADD CONSTRAINT "template_drafts_template_no_templates_template_no_fk" FOREIGN KEY ("template_no") REFERENCES "public"."templates"("template_no") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "template_drafts" ADD CONSTRAINT "template_drafts_saved_by_user_no_users_user_no_fk" FOREIGN KEY ("saved_by_user_no") REFERENCES "public"."users"("user_no") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "template_revisions" ADD CONSTRAINT "template_revisions_template_no_templates_template_no_fk" FOREIGN KEY ("template_no") REFERENCES "public"."templates"("template_no") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "template_revisions" ADD CONSTRAINT "template_revisions_checked_by_user_no_users_user_no_fk" FOREIGN KEY ("checked_by_user_no") REFERENCES "public"."users"("user_no") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "template_revisions" ADD CONSTRAINT "template_revisions_approved_by_user_no_users_user_no_fk" FOREIGN KEY ("approved_by_user_no") REFERENCES "public"."users"("user_no") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "templates" ADD CONSTRAINT "templates_author_user_no_users_user_no_fk" FOREIGN KEY ("author_user_no") REFERENCES "public"."users"("user_no") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "template_revisions_version_unique" ON "template_revisions" USING btree ("template_no","version_major","version_minor") WHERE "template_revisions"."approved_at" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "templates_title_unique" ON "templates" USING btree ("title") WHERE "templates"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "templates_state_idx" ON "templates" USING btree ("state","template_no");--> statement-breakpoint
ALTER TABLE "lab_notes" ADD CONSTRAINT "lab_notes_template_no_templates_template_no_fk" FOREIGN KEY ("template_no") REFERENCES "public"."templates"("template_no") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- hand-written below: keep when regenerating
-- An approved template version never changes: the database refuses any change to an approved revision
-- but marking it superseded (once), and refuses removing one, whatever the application does.
CREATE OR REPLACE FUNCTION template_revisions_keep_approved() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    IF OLD.approved_at IS NOT NULL THEN
      RAISE EXCEPTION 'an approved template version cannot be removed' USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN OLD;
  END IF;
  IF OLD.approved_at IS NOT NULL AND (
    OLD.superseded_at IS NOT NULL OR NEW.superseded_at IS NULL
    OR (to_jsonb(NEW) - 'superseded_at') IS DISTINCT FROM (to_jsonb(OLD) - 'superseded_at')
  ) THEN
    RAISE EXCEPTION 'an approved template version cannot be changed' USING ERRCODE = 'insufficient_privilege';
  END IF;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER template_revisions_approved_immutable BEFORE UPDATE OR DELETE ON template_revisions
  FOR EACH ROW EXECUTE FUNCTION template_revisions_keep_approved();
