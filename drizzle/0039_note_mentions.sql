CREATE TABLE "note_mentions" (
	"note_no" integer NOT NULL,
	"block_uid" text NOT NULL,
	"user_id" text NOT NULL,
	"outcome" text NOT NULL,
	"actor_user_no" integer,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "note_mentions_note_no_block_uid_user_id_pk" PRIMARY KEY("note_no","block_uid","user_id")
);
--> statement-breakpoint
ALTER TABLE "note_mentions" ADD CONSTRAINT "note_mentions_note_no_lab_notes_note_no_fk" FOREIGN KEY ("note_no") REFERENCES "public"."lab_notes"("note_no") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "note_mentions" ADD CONSTRAINT "note_mentions_actor_user_no_users_user_no_fk" FOREIGN KEY ("actor_user_no") REFERENCES "public"."users"("user_no") ON DELETE no action ON UPDATE no action;