CREATE TABLE "document_clients" (
	"document_name" text NOT NULL,
	"client_id" bigint NOT NULL,
	"user_no" integer NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "document_clients_document_name_client_id_pk" PRIMARY KEY("document_name","client_id")
);
--> statement-breakpoint
ALTER TABLE "document_clients" ADD CONSTRAINT "document_clients_user_no_users_user_no_fk" FOREIGN KEY ("user_no") REFERENCES "public"."users"("user_no") ON DELETE no action ON UPDATE no action;