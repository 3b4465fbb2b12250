CREATE TABLE "export_jobs" (
	"job_id" uuid PRIMARY KEY NOT NULL,
	"requested_by_user_no" integer NOT NULL,
	"format" text NOT NULL,
	"project_no" integer,
	"start_date" text,
	"end_date" text,
	"language" text NOT NULL,
	"time_zone" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"progress" integer DEFAULT 0 NOT NULL,
	"file_name" text,
	"storage_path" text,
	"size" bigint,
	"sha256" text,
	"error_code" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp (3) with time zone,
	"heartbeat_at" timestamp (3) with time zone,
	"finished_at" timestamp (3) with time zone,
	"removed_at" timestamp (3) with time zone
);
--> statement-breakpoint
ALTER TABLE "export_jobs" ADD CONSTRAINT "export_jobs_requested_by_user_no_users_user_no_fk" FOREIGN KEY ("requested_by_user_no") REFERENCES "public"."users"("user_no") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "export_jobs" ADD CONSTRAINT "export_jobs_project_no_projects_project_no_fk" FOREIGN KEY ("project_no") REFERENCES "public"."projects"("project_no") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "export_jobs_requester_idx" ON "export_jobs" USING btree ("requested_by_user_no","created_at");--> statement-breakpoint
CREATE INDEX "export_jobs_project_idx" ON "export_jobs" USING btree ("project_no","created_at");--> statement-breakpoint
CREATE INDEX "export_jobs_status_idx" ON "export_jobs" USING btree ("status","created_at");