CREATE TABLE "schema_entries" (
	"schema_no" integer NOT NULL,
	"position" integer NOT NULL,
	"field" text NOT NULL,
	"value" text NOT NULL,
	"status" text DEFAULT 'Y' NOT NULL,
	CONSTRAINT "schema_entries_schema_no_position_pk" PRIMARY KEY("schema_no","position")
);
--> statement-breakpoint
CREATE TABLE "schema_types" (
	"schemas_type_no" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'Y' NOT NULL,
	"revision" integer DEFAULT 1 NOT NULL,
	"created_by_user_no" integer NOT NULL,
	"updated_by_user_no" integer NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "schemas" (
	"schema_no" serial PRIMARY KEY NOT NULL,
	"schemas_type_no" integer NOT NULL,
	"position" integer NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'Y' NOT NULL,
	"revision" integer DEFAULT 1 NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "schema_entries" ADD CONSTRAINT "schema_entries_schema_no_schemas_schema_no_fk" FOREIGN KEY ("schema_no") REFERENCES "public"."schemas"("schema_no") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schema_types" ADD CONSTRAINT "schema_types_created_by_user_no_users_user_no_fk" FOREIGN KEY ("created_by_user_no") REFERENCES "public"."users"("user_no") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schema_types" ADD CONSTRAINT "schema_types_updated_by_user_no_users_user_no_fk" FOREIGN KEY ("updated_by_user_no") REFERENCES "public"."users"("user_no") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schemas" ADD CONSTRAINT "schemas_schemas_type_no_schema_types_schemas_type_no_fk" FOREIGN KEY ("schemas_type_no") REFERENCES "public"."schema_types"("schemas_type_no") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "schema_types_code_unique" ON "schema_types" USING btree (lower("code"));--> statement-breakpoint
CREATE UNIQUE INDEX "schema_types_title_unique" ON "schema_types" USING btree (lower("title"));--> statement-breakpoint
CREATE INDEX "schema_types_status_idx" ON "schema_types" USING btree ("status","schemas_type_no");--> statement-breakpoint
CREATE INDEX "schemas_type_idx" ON "schemas" USING btree ("schemas_type_no","position");