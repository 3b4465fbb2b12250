CREATE TABLE "live_commands" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"origin" text NOT NULL,
	"command" jsonb NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "live_commands_created_at_idx" ON "live_commands" USING btree ("created_at");