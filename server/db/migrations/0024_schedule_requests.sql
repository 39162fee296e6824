CREATE TABLE "schedule_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"salon_id" uuid NOT NULL,
	"staff_id" uuid NOT NULL,
	"requested_by" text,
	"date" date NOT NULL,
	"kind" text NOT NULL,
	"starts_at" time,
	"ends_at" time,
	"note" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"decided_by" text,
	"decided_at" timestamp with time zone,
	"decision_note" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "schedule_requests_kind_valid" CHECK ("schedule_requests"."kind" in ('closed', 'hours', 'extra')),
	CONSTRAINT "schedule_requests_status_valid" CHECK ("schedule_requests"."status" in ('pending', 'approved', 'declined', 'withdrawn')),
	CONSTRAINT "schedule_requests_times" CHECK (case when "schedule_requests"."kind" = 'closed' then "schedule_requests"."starts_at" is null and "schedule_requests"."ends_at" is null
        else "schedule_requests"."starts_at" is not null and "schedule_requests"."ends_at" is not null and "schedule_requests"."ends_at" > "schedule_requests"."starts_at" end),
	CONSTRAINT "schedule_requests_note_length" CHECK (char_length("schedule_requests"."note") <= 200),
	CONSTRAINT "schedule_requests_decision_note_length" CHECK (char_length("schedule_requests"."decision_note") <= 200)
);
--> statement-breakpoint
ALTER TABLE "schedule_requests" ADD CONSTRAINT "schedule_requests_salon_id_salons_id_fk" FOREIGN KEY ("salon_id") REFERENCES "public"."salons"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedule_requests" ADD CONSTRAINT "schedule_requests_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedule_requests" ADD CONSTRAINT "schedule_requests_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedule_requests" ADD CONSTRAINT "schedule_requests_staff_fk" FOREIGN KEY ("staff_id","salon_id") REFERENCES "public"."staff"("id","salon_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "schedule_requests_salon_status_idx" ON "schedule_requests" USING btree ("salon_id","status","date");--> statement-breakpoint
CREATE INDEX "schedule_requests_staff_idx" ON "schedule_requests" USING btree ("staff_id","salon_id");--> statement-breakpoint
CREATE INDEX "schedule_requests_requested_by_idx" ON "schedule_requests" USING btree ("requested_by") WHERE "schedule_requests"."requested_by" is not null;--> statement-breakpoint
CREATE INDEX "schedule_requests_decided_by_idx" ON "schedule_requests" USING btree ("decided_by") WHERE "schedule_requests"."decided_by" is not null;