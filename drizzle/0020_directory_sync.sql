CREATE TABLE "directory_sync_runs" (
	"run_no" serial PRIMARY KEY NOT NULL,
	"trigger" text NOT NULL,
	"actor_user_no" integer,
	"started_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp (3) with time zone,
	"status" text DEFAULT 'running' NOT NULL,
	"phase" text,
	"entries_read" integer DEFAULT 0 NOT NULL,
	"heartbeat_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"counts" jsonb,
	"notes" jsonb,
	"error_code" text,
	"error_detail" text
);
--> statement-breakpoint
ALTER TABLE "departments" ADD COLUMN "directory_missing_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "source" text DEFAULT 'local' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "directory_missing_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "directory_sync_runs" ADD CONSTRAINT "directory_sync_runs_actor_user_no_users_user_no_fk" FOREIGN KEY ("actor_user_no") REFERENCES "public"."users"("user_no") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "directory_sync_runs_started_idx" ON "directory_sync_runs" USING btree ("started_at");