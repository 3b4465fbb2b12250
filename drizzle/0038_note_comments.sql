-- Comment threads on notes and template drafts (server/src/comments), kept beside the content; an export's
-- choice to print them.
CREATE TABLE "comments" (
	"comment_id" bigserial PRIMARY KEY NOT NULL,
	"note_no" integer,
	"template_no" integer,
	"reply_to" bigint,
	"author_user_no" integer NOT NULL,
	"body" text NOT NULL,
	"block_uid" text,
	"anchor_start" text,
	"anchor_end" text,
	"quote" text,
	"resolved_at" timestamp (3) with time zone,
	"resolved_by_user_no" integer,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"edited_at" timestamp (3) with time zone,
	"deleted_at" timestamp (3) with time zone
);
--> statement-breakpoint
ALTER TABLE "export_jobs" ADD COLUMN "comments" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_note_no_lab_notes_note_no_fk" FOREIGN KEY ("note_no") REFERENCES "public"."lab_notes"("note_no") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_template_no_templates_template_no_fk" FOREIGN KEY ("template_no") REFERENCES "public"."templates"("template_no") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_reply_to_comments_comment_id_fk" FOREIGN KEY ("reply_to") REFERENCES "public"."comments"("comment_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_author_user_no_users_user_no_fk" FOREIGN KEY ("author_user_no") REFERENCES "public"."users"("user_no") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_resolved_by_user_no_users_user_no_fk" FOREIGN KEY ("resolved_by_user_no") REFERENCES "public"."users"("user_no") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "comments_note_idx" ON "comments" USING btree ("note_no","comment_id");--> statement-breakpoint
CREATE INDEX "comments_template_idx" ON "comments" USING btree ("template_no","comment_id");--> statement-breakpoint
CREATE INDEX "comments_reply_idx" ON "comments" USING btree ("reply_to");--> statement-breakpoint
-- Exactly one place; a thread's first comment has its block (a reply has none: it is where its thread is).
ALTER TABLE "comments" ADD CONSTRAINT "comments_one_place" CHECK (("note_no" is null) <> ("template_no" is null));--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_anchor_of_threads" CHECK (("reply_to" is null) = ("block_uid" is not null));
