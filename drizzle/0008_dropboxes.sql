CREATE TABLE "dropbox_rows" (
	"dropbox_no" integer NOT NULL,
	"position" integer NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	CONSTRAINT "dropbox_rows_dropbox_no_position_pk" PRIMARY KEY("dropbox_no","position")
);
--> statement-breakpoint
CREATE TABLE "dropboxes" (
	"dropbox_no" serial PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"status" text DEFAULT 'Y' NOT NULL,
	"created_by_user_no" integer NOT NULL,
	"updated_by_user_no" integer NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "dropbox_rows" ADD CONSTRAINT "dropbox_rows_dropbox_no_dropboxes_dropbox_no_fk" FOREIGN KEY ("dropbox_no") REFERENCES "public"."dropboxes"("dropbox_no") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dropboxes" ADD CONSTRAINT "dropboxes_created_by_user_no_users_user_no_fk" FOREIGN KEY ("created_by_user_no") REFERENCES "public"."users"("user_no") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dropboxes" ADD CONSTRAINT "dropboxes_updated_by_user_no_users_user_no_fk" FOREIGN KEY ("updated_by_user_no") REFERENCES "public"."users"("user_no") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "dropbox_rows_code_unique" ON "dropbox_rows" USING btree ("dropbox_no","code");--> statement-breakpoint
CREATE UNIQUE INDEX "dropboxes_title_unique" ON "dropboxes" USING btree ("title");--> statement-breakpoint
CREATE INDEX "dropboxes_status_idx" ON "dropboxes" USING btree ("status","dropbox_no");--> statement-breakpoint
-- hand-written below: keep when regenerating
ALTER TABLE "dropboxes" ADD CONSTRAINT "dropboxes_status_check" CHECK ("status" IN ('Y', 'N'));
