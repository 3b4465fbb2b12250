CREATE TABLE "live_processes" (
	"origin" text PRIMARY KEY NOT NULL,
	"lease_ms" integer NOT NULL,
	"seen_at" timestamp with time zone NOT NULL,
	"caught_up_to" timestamp with time zone
);
