CREATE TABLE "eln_imports" (
	"import_no" serial PRIMARY KEY NOT NULL,
	"project_no" integer NOT NULL,
	"archive_name" text NOT NULL,
	"imported_by_user_no" integer NOT NULL,
	"signed" text NOT NULL,
	"key_id" text,
	"metadata_blake2b" "bytea",
	"minisig" text,
	"key_no" integer,
	"check" text,
	"checked_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "signing_keys" (
	"key_no" serial PRIMARY KEY NOT NULL,
	"key_id" text NOT NULL,
	"public_key" text NOT NULL,
	"name" text NOT NULL,
	"organisation" text DEFAULT '' NOT NULL,
	"added_by_user_no" integer NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "signing_keys_key_id_unique" UNIQUE("key_id")
);
--> statement-breakpoint
ALTER TABLE "eln_imports" ADD CONSTRAINT "eln_imports_project_no_projects_project_no_fk" FOREIGN KEY ("project_no") REFERENCES "public"."projects"("project_no") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "eln_imports" ADD CONSTRAINT "eln_imports_imported_by_user_no_users_user_no_fk" FOREIGN KEY ("imported_by_user_no") REFERENCES "public"."users"("user_no") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "eln_imports" ADD CONSTRAINT "eln_imports_key_no_signing_keys_key_no_fk" FOREIGN KEY ("key_no") REFERENCES "public"."signing_keys"("key_no") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signing_keys" ADD CONSTRAINT "signing_keys_added_by_user_no_users_user_no_fk" FOREIGN KEY ("added_by_user_no") REFERENCES "public"."users"("user_no") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "eln_imports_key_id_idx" ON "eln_imports" USING btree ("key_id");