ALTER TABLE "files" ADD COLUMN "schemas_type_no" integer;--> statement-breakpoint
ALTER TABLE "files" ADD COLUMN "schema_no" integer;--> statement-breakpoint
ALTER TABLE "files" ADD COLUMN "small_file_id" uuid;--> statement-breakpoint
ALTER TABLE "schema_types" ADD COLUMN "thumbnail_file_id" uuid;--> statement-breakpoint
ALTER TABLE "schema_types" ADD COLUMN "thumbnail_small_file_id" uuid;--> statement-breakpoint
ALTER TABLE "schemas" ADD COLUMN "thumbnail_file_id" uuid;--> statement-breakpoint
ALTER TABLE "schemas" ADD COLUMN "thumbnail_small_file_id" uuid;--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_schemas_type_no_schema_types_schemas_type_no_fk" FOREIGN KEY ("schemas_type_no") REFERENCES "public"."schema_types"("schemas_type_no") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_schema_no_schemas_schema_no_fk" FOREIGN KEY ("schema_no") REFERENCES "public"."schemas"("schema_no") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_small_file_id_files_file_id_fk" FOREIGN KEY ("small_file_id") REFERENCES "public"."files"("file_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schema_types" ADD CONSTRAINT "schema_types_thumbnail_file_id_files_file_id_fk" FOREIGN KEY ("thumbnail_file_id") REFERENCES "public"."files"("file_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schema_types" ADD CONSTRAINT "schema_types_thumbnail_small_file_id_files_file_id_fk" FOREIGN KEY ("thumbnail_small_file_id") REFERENCES "public"."files"("file_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schemas" ADD CONSTRAINT "schemas_thumbnail_file_id_files_file_id_fk" FOREIGN KEY ("thumbnail_file_id") REFERENCES "public"."files"("file_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schemas" ADD CONSTRAINT "schemas_thumbnail_small_file_id_files_file_id_fk" FOREIGN KEY ("thumbnail_small_file_id") REFERENCES "public"."files"("file_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "files_schema_type_idx" ON "files" USING btree ("schemas_type_no");