CREATE TABLE "extra_file_types" (
	"extension" text PRIMARY KEY NOT NULL,
	"mime_type" text NOT NULL,
	"content_check" text NOT NULL,
	"signatures" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
