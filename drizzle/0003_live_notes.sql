CREATE SEQUENCE "public"."lab_note_number_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE TABLE "document_snapshots" (
	"document_name" text PRIMARY KEY NOT NULL,
	"state" "bytea" NOT NULL,
	"last_update_id" bigint NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "document_updates" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"document_name" text NOT NULL,
	"update" "bytea" NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "files" (
	"file_id" uuid PRIMARY KEY NOT NULL,
	"note_no" integer,
	"kind" text NOT NULL,
	"origin_name" text NOT NULL,
	"extension" text NOT NULL,
	"mime_type" text NOT NULL,
	"size" integer NOT NULL,
	"sha256" text NOT NULL,
	"storage_path" text NOT NULL,
	"uploaded_by_user_no" integer NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lab_notes" (
	"note_no" serial PRIMARY KEY NOT NULL,
	"project_no" integer NOT NULL,
	"title" text NOT NULL,
	"lab_note_number" text NOT NULL,
	"writer_user_no" integer NOT NULL,
	"status" text DEFAULT 'W' NOT NULL,
	"version" integer DEFAULT 0 NOT NULL,
	"template_no" integer,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "note_drafts" (
	"note_no" integer PRIMARY KEY NOT NULL,
	"blocks" jsonb NOT NULL,
	"saved_by_user_no" integer NOT NULL,
	"saved_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "note_holds" (
	"hold_id" text PRIMARY KEY NOT NULL,
	"note_no" integer NOT NULL,
	"user_no" integer NOT NULL,
	"instance_id" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "note_versions" (
	"note_no" integer NOT NULL,
	"version" integer NOT NULL,
	"blocks" jsonb NOT NULL,
	"blocks_hash" text NOT NULL,
	"document_state" "bytea" NOT NULL,
	"saved_by_user_no" integer NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "note_versions_note_no_version_pk" PRIMARY KEY("note_no","version")
);
--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_note_no_lab_notes_note_no_fk" FOREIGN KEY ("note_no") REFERENCES "public"."lab_notes"("note_no") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_uploaded_by_user_no_users_user_no_fk" FOREIGN KEY ("uploaded_by_user_no") REFERENCES "public"."users"("user_no") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lab_notes" ADD CONSTRAINT "lab_notes_project_no_projects_project_no_fk" FOREIGN KEY ("project_no") REFERENCES "public"."projects"("project_no") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lab_notes" ADD CONSTRAINT "lab_notes_writer_user_no_users_user_no_fk" FOREIGN KEY ("writer_user_no") REFERENCES "public"."users"("user_no") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "note_drafts" ADD CONSTRAINT "note_drafts_note_no_lab_notes_note_no_fk" FOREIGN KEY ("note_no") REFERENCES "public"."lab_notes"("note_no") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "note_drafts" ADD CONSTRAINT "note_drafts_saved_by_user_no_users_user_no_fk" FOREIGN KEY ("saved_by_user_no") REFERENCES "public"."users"("user_no") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "note_holds" ADD CONSTRAINT "note_holds_note_no_lab_notes_note_no_fk" FOREIGN KEY ("note_no") REFERENCES "public"."lab_notes"("note_no") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "note_holds" ADD CONSTRAINT "note_holds_user_no_users_user_no_fk" FOREIGN KEY ("user_no") REFERENCES "public"."users"("user_no") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "note_versions" ADD CONSTRAINT "note_versions_note_no_lab_notes_note_no_fk" FOREIGN KEY ("note_no") REFERENCES "public"."lab_notes"("note_no") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "note_versions" ADD CONSTRAINT "note_versions_saved_by_user_no_users_user_no_fk" FOREIGN KEY ("saved_by_user_no") REFERENCES "public"."users"("user_no") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "document_updates_name_idx" ON "document_updates" USING btree ("document_name","id");--> statement-breakpoint
CREATE INDEX "files_note_idx" ON "files" USING btree ("note_no");--> statement-breakpoint
CREATE UNIQUE INDEX "lab_notes_number_unique" ON "lab_notes" USING btree ("lab_note_number");--> statement-breakpoint
CREATE UNIQUE INDEX "lab_notes_project_title_unique" ON "lab_notes" USING btree ("project_no","title") WHERE "lab_notes"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "lab_notes_project_idx" ON "lab_notes" USING btree ("project_no","note_no");--> statement-breakpoint
CREATE INDEX "note_holds_note_idx" ON "note_holds" USING btree ("note_no");--> statement-breakpoint
CREATE INDEX "note_holds_user_idx" ON "note_holds" USING btree ("user_no");