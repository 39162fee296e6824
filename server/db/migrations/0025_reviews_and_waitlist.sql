CREATE TABLE "review_reports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"review_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"reason" text NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"resolved_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "review_reports_one_per_person" UNIQUE("review_id","user_id"),
	CONSTRAINT "review_reports_reason_valid" CHECK ("review_reports"."reason" in ('inappropriate', 'personal_info', 'spam', 'not_a_visit', 'other')),
	CONSTRAINT "review_reports_note_length" CHECK (char_length("review_reports"."note") <= 500)
);
--> statement-breakpoint
CREATE TABLE "waitlist_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"salon_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"staff_id" uuid,
	"menu_ids" uuid[] NOT NULL,
	"coupon_id" uuid,
	"date" date NOT NULL,
	"window_start" smallint NOT NULL,
	"window_end" smallint NOT NULL,
	"status" text DEFAULT 'waiting' NOT NULL,
	"booking_id" uuid,
	"version" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "waitlist_entries_status_valid" CHECK ("waitlist_entries"."status" in ('waiting', 'offered', 'booked', 'left', 'lapsed', 'expired')),
	CONSTRAINT "waitlist_entries_window_valid" CHECK ("waitlist_entries"."window_start" >= 0 and "waitlist_entries"."window_end" <= 1440 and "waitlist_entries"."window_start" < "waitlist_entries"."window_end"),
	CONSTRAINT "waitlist_entries_menu_count" CHECK (cardinality("waitlist_entries"."menu_ids") between 1 and 5)
);
--> statement-breakpoint
CREATE TABLE "waitlist_offers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"entry_id" uuid NOT NULL,
	"salon_id" uuid NOT NULL,
	"hold_id" uuid,
	"staff_id" uuid NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"settled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "waitlist_offers_status_valid" CHECK ("waitlist_offers"."status" in ('open', 'accepted', 'lapsed', 'withdrawn')),
	CONSTRAINT "waitlist_offers_order" CHECK ("waitlist_offers"."ends_at" > "waitlist_offers"."starts_at")
);
--> statement-breakpoint
ALTER TABLE "reviews" DROP CONSTRAINT "reviews_booking_id_bookings_id_fk";
--> statement-breakpoint
-- Reviews no visit stands behind (the old demo data) go: the seed writes them again from completed bookings (decision 0054).
DELETE FROM "reviews" WHERE "booking_id" IS NULL;--> statement-breakpoint
ALTER TABLE "reviews" ALTER COLUMN "booking_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "reviews" ADD COLUMN "rating_atmosphere" smallint;--> statement-breakpoint
ALTER TABLE "reviews" ADD COLUMN "rating_service" smallint;--> statement-breakpoint
ALTER TABLE "reviews" ADD COLUMN "rating_technique" smallint;--> statement-breakpoint
ALTER TABLE "reviews" ADD COLUMN "rating_finish" smallint;--> statement-breakpoint
ALTER TABLE "reviews" ADD COLUMN "reply_body" text;--> statement-breakpoint
ALTER TABLE "reviews" ADD COLUMN "reply_by" text;--> statement-breakpoint
ALTER TABLE "reviews" ADD COLUMN "replied_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "reviews" ADD COLUMN "reply_updated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "reviews" ADD COLUMN "hidden_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "reviews" ADD COLUMN "hidden_by" text;--> statement-breakpoint
ALTER TABLE "reviews" ADD COLUMN "hidden_note" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "reviews" ADD COLUMN "version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "reviews" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "salon_booking_settings" ADD COLUMN "waitlist_offer_minutes" integer DEFAULT 30 NOT NULL;--> statement-breakpoint
ALTER TABLE "review_reports" ADD CONSTRAINT "review_reports_review_id_reviews_id_fk" FOREIGN KEY ("review_id") REFERENCES "public"."reviews"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_reports" ADD CONSTRAINT "review_reports_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waitlist_entries" ADD CONSTRAINT "waitlist_entries_salon_id_salons_id_fk" FOREIGN KEY ("salon_id") REFERENCES "public"."salons"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waitlist_entries" ADD CONSTRAINT "waitlist_entries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waitlist_entries" ADD CONSTRAINT "waitlist_entries_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waitlist_entries" ADD CONSTRAINT "waitlist_entries_staff_fk" FOREIGN KEY ("staff_id","salon_id") REFERENCES "public"."staff"("id","salon_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waitlist_offers" ADD CONSTRAINT "waitlist_offers_entry_id_waitlist_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."waitlist_entries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waitlist_offers" ADD CONSTRAINT "waitlist_offers_salon_id_salons_id_fk" FOREIGN KEY ("salon_id") REFERENCES "public"."salons"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waitlist_offers" ADD CONSTRAINT "waitlist_offers_hold_id_bookings_id_fk" FOREIGN KEY ("hold_id") REFERENCES "public"."bookings"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "review_reports_open_idx" ON "review_reports" USING btree ("created_at") WHERE "review_reports"."resolved_at" is null;--> statement-breakpoint
CREATE INDEX "review_reports_user_idx" ON "review_reports" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "waitlist_entries_line_idx" ON "waitlist_entries" USING btree ("salon_id","date","created_at","id") WHERE "waitlist_entries"."status" in ('waiting', 'offered');--> statement-breakpoint
CREATE INDEX "waitlist_entries_user_idx" ON "waitlist_entries" USING btree ("user_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "waitlist_entries_staff_idx" ON "waitlist_entries" USING btree ("staff_id","salon_id") WHERE "waitlist_entries"."staff_id" is not null;--> statement-breakpoint
CREATE INDEX "waitlist_entries_booking_idx" ON "waitlist_entries" USING btree ("booking_id") WHERE "waitlist_entries"."booking_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "waitlist_offers_one_open_per_entry" ON "waitlist_offers" USING btree ("entry_id") WHERE "waitlist_offers"."status" = 'open';--> statement-breakpoint
CREATE INDEX "waitlist_offers_hold_idx" ON "waitlist_offers" USING btree ("hold_id") WHERE "waitlist_offers"."hold_id" is not null;--> statement-breakpoint
CREATE INDEX "waitlist_offers_entry_idx" ON "waitlist_offers" USING btree ("entry_id","created_at");--> statement-breakpoint
CREATE INDEX "waitlist_offers_salon_idx" ON "waitlist_offers" USING btree ("salon_id","starts_at");--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_reply_by_users_id_fk" FOREIGN KEY ("reply_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_hidden_by_users_id_fk" FOREIGN KEY ("hidden_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reviews_salon_rating_idx" ON "reviews" USING btree ("salon_id","rating" DESC NULLS LAST,"created_at" DESC NULLS LAST) WHERE "reviews"."hidden_at" is null;--> statement-breakpoint
CREATE INDEX "reviews_reply_by_idx" ON "reviews" USING btree ("reply_by") WHERE "reviews"."reply_by" is not null;--> statement-breakpoint
CREATE INDEX "reviews_hidden_by_idx" ON "reviews" USING btree ("hidden_by") WHERE "reviews"."hidden_by" is not null;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_aspect_ratings_range" CHECK (coalesce("reviews"."rating_atmosphere", 1) between 1 and 5 and coalesce("reviews"."rating_service", 1) between 1 and 5 and coalesce("reviews"."rating_technique", 1) between 1 and 5 and coalesce("reviews"."rating_finish", 1) between 1 and 5);--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_body_length" CHECK (char_length("reviews"."body") between 1 and 1000);--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_reply_length" CHECK ("reviews"."reply_body" is null or char_length("reviews"."reply_body") between 1 and 1000);--> statement-breakpoint
ALTER TABLE "salon_booking_settings" ADD CONSTRAINT "salon_booking_settings_waitlist_offer_range" CHECK ("salon_booking_settings"."waitlist_offer_minutes" between 10 and 240);