ALTER TABLE "files" ADD COLUMN "template_no" integer;--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_template_no_templates_template_no_fk" FOREIGN KEY ("template_no") REFERENCES "public"."templates"("template_no") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "files_template_idx" ON "files" USING btree ("template_no");