CREATE TABLE "template_writers" (
	"template_no" integer NOT NULL,
	"revision" integer NOT NULL,
	"user_no" integer NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "template_writers_template_no_revision_user_no_pk" PRIMARY KEY("template_no","revision","user_no")
);
--> statement-breakpoint
DROP INDEX "template_revisions_version_unique";--> statement-breakpoint
ALTER TABLE "template_revisions" ADD COLUMN "version" numeric;--> statement-breakpoint
ALTER TABLE "template_writers" ADD CONSTRAINT "template_writers_template_no_templates_template_no_fk" FOREIGN KEY ("template_no") REFERENCES "public"."templates"("template_no") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "template_writers" ADD CONSTRAINT "template_writers_user_no_users_user_no_fk" FOREIGN KEY ("user_no") REFERENCES "public"."users"("user_no") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- hand-written below: keep when regenerating
-- Versions become one decimal kept as written: an approved major.minor pair is written as it was shown
-- (major, a point, minor). The trigger that keeps approved revisions unchanged is set aside for this one
-- statement inside the migration's transaction.
ALTER TABLE "template_revisions" DISABLE TRIGGER "template_revisions_approved_immutable";--> statement-breakpoint
UPDATE "template_revisions" SET "version" = ("version_major" || '.' || "version_minor")::numeric
  WHERE "version_major" IS NOT NULL AND "version_minor" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "template_revisions" ENABLE TRIGGER "template_revisions_approved_immutable";--> statement-breakpoint
-- end of hand-written part
CREATE UNIQUE INDEX "template_revisions_version_unique" ON "template_revisions" USING btree ("template_no",("version"::text)) WHERE "template_revisions"."approved_at" is not null;--> statement-breakpoint
ALTER TABLE "template_revisions" DROP COLUMN "version_major";--> statement-breakpoint
ALTER TABLE "template_revisions" DROP COLUMN "version_minor";
