CREATE TABLE "timestamp_authorities" (
	"authority_no" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"url" text NOT NULL,
	"username" text,
	"password" text,
	"policy" text,
	"hash" text DEFAULT 'SHA-256' NOT NULL,
	"chain_pem" text NOT NULL,
	"chain_expires_at" timestamp (3) with time zone NOT NULL,
	"position" integer NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "timestamps" (
	"stamp_id" bigserial PRIMARY KEY NOT NULL,
	"subject_kind" text NOT NULL,
	"subject_id" text NOT NULL,
	"subject" "bytea" NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"claimed_until" timestamp (3) with time zone,
	"last_error" text,
	"authority_no" integer,
	"authority_name" text,
	"chain_pem" text,
	"hash" text,
	"policy" text,
	"serial" text,
	"gen_time" timestamp (3) with time zone,
	"token" "bytea",
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "timestamps" ADD CONSTRAINT "timestamps_authority_no_timestamp_authorities_authority_no_fk" FOREIGN KEY ("authority_no") REFERENCES "public"."timestamp_authorities"("authority_no") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "timestamps_subject_unique" ON "timestamps" USING btree ("subject_kind","subject_id");--> statement-breakpoint
CREATE INDEX "timestamps_due_idx" ON "timestamps" USING btree ("next_attempt_at") WHERE "timestamps"."status" = 'pending';