-- Booking data model (docs/decisions/0009-booking-data-model.md). Hand-edited
-- after drizzle-kit generate: existing rows are converted before anything is
-- dropped (jsonb opening hours → rows, shifts → schedules, time off →
-- dated exceptions, bookings and booking_menus get their new columns
-- filled), and the exclusion constraints drizzle-kit cannot express are
-- added at the end.
CREATE TABLE "jobs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"salon_id" uuid,
	"kind" text NOT NULL,
	"payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"run_at" timestamp with time zone NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"locked_until" timestamp with time zone,
	"done_at" timestamp with time zone,
	"last_error" text,
	"dedupe_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "jobs_dedupe_key_unique" UNIQUE("dedupe_key"),
	CONSTRAINT "jobs_attempts_nonnegative" CHECK ("jobs"."attempts" >= 0)
);--> statement-breakpoint
CREATE TABLE "salon_booking_settings" (
	"salon_id" uuid PRIMARY KEY NOT NULL,
	"slot_step_minutes" integer DEFAULT 15 NOT NULL,
	"lead_time_minutes" integer DEFAULT 60 NOT NULL,
	"booking_window_days" integer DEFAULT 60 NOT NULL,
	"cancellation_cutoff_hours" integer DEFAULT 24 NOT NULL,
	"buffer_after_minutes" integer DEFAULT 0 NOT NULL,
	"daily_limit_per_staff" integer,
	"same_day_cutoff" time,
	"closed_on_public_holidays" boolean DEFAULT false NOT NULL,
	"hold_minutes" integer DEFAULT 10 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "salon_booking_settings_slot_step_valid" CHECK ("salon_booking_settings"."slot_step_minutes" in (5, 10, 15, 20, 30, 60)),
	CONSTRAINT "salon_booking_settings_lead_time_nonnegative" CHECK ("salon_booking_settings"."lead_time_minutes" >= 0),
	CONSTRAINT "salon_booking_settings_window_range" CHECK ("salon_booking_settings"."booking_window_days" between 1 and 365),
	CONSTRAINT "salon_booking_settings_cutoff_nonnegative" CHECK ("salon_booking_settings"."cancellation_cutoff_hours" >= 0),
	CONSTRAINT "salon_booking_settings_buffer_nonnegative" CHECK ("salon_booking_settings"."buffer_after_minutes" >= 0),
	CONSTRAINT "salon_booking_settings_daily_limit_positive" CHECK ("salon_booking_settings"."daily_limit_per_staff" is null or "salon_booking_settings"."daily_limit_per_staff" > 0),
	CONSTRAINT "salon_booking_settings_hold_range" CHECK ("salon_booking_settings"."hold_minutes" between 1 and 60)
);--> statement-breakpoint
CREATE TABLE "salon_opening_hours" (
	"salon_id" uuid NOT NULL,
	"weekday" smallint NOT NULL,
	"opens" time NOT NULL,
	"closes" time NOT NULL,
	CONSTRAINT "salon_opening_hours_salon_id_weekday_opens_pk" PRIMARY KEY("salon_id","weekday","opens"),
	CONSTRAINT "salon_opening_hours_weekday_range" CHECK ("salon_opening_hours"."weekday" between 0 and 6),
	CONSTRAINT "salon_opening_hours_order" CHECK ("salon_opening_hours"."closes" > "salon_opening_hours"."opens")
);--> statement-breakpoint
CREATE TABLE "schedule_exceptions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"salon_id" uuid NOT NULL,
	"staff_id" uuid,
	"date" date NOT NULL,
	"kind" text NOT NULL,
	"starts_at" time,
	"ends_at" time,
	"note" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "schedule_exceptions_kind_valid" CHECK ("schedule_exceptions"."kind" in ('closed', 'hours', 'extra')),
	CONSTRAINT "schedule_exceptions_times" CHECK (case when "schedule_exceptions"."kind" = 'closed' then "schedule_exceptions"."starts_at" is null and "schedule_exceptions"."ends_at" is null
        else "schedule_exceptions"."starts_at" is not null and "schedule_exceptions"."ends_at" is not null and "schedule_exceptions"."ends_at" > "schedule_exceptions"."starts_at" end)
);--> statement-breakpoint
CREATE TABLE "staff_schedules" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"salon_id" uuid NOT NULL,
	"staff_id" uuid NOT NULL,
	"weekday" smallint NOT NULL,
	"starts_at" time NOT NULL,
	"ends_at" time NOT NULL,
	"valid_from" date,
	"valid_until" date,
	CONSTRAINT "staff_schedules_weekday_range" CHECK ("staff_schedules"."weekday" between 0 and 6),
	CONSTRAINT "staff_schedules_order" CHECK ("staff_schedules"."ends_at" > "staff_schedules"."starts_at"),
	CONSTRAINT "staff_schedules_validity_order" CHECK ("staff_schedules"."valid_from" is null or "staff_schedules"."valid_until" is null or "staff_schedules"."valid_until" >= "staff_schedules"."valid_from")
);--> statement-breakpoint
-- Opening hours: jsonb [{weekday, opens, closes}] → one row per interval.
INSERT INTO "salon_opening_hours" ("salon_id", "weekday", "opens", "closes")
SELECT s."id", (h->>'weekday')::smallint, (h->>'opens')::time, (h->>'closes')::time
FROM "salons" s, jsonb_array_elements(s."opening_hours") h
ON CONFLICT DO NOTHING;--> statement-breakpoint
-- Weekly shifts → schedules (one interval a day before; breaks possible now).
INSERT INTO "staff_schedules" ("id", "salon_id", "staff_id", "weekday", "starts_at", "ends_at")
SELECT sh."id", st."salon_id", sh."staff_id", sh."weekday", sh."starts_at", sh."ends_at"
FROM "staff_shifts" sh JOIN "staff" st ON st."id" = sh."staff_id";--> statement-breakpoint
-- Time off (instants) → a closed day for every local date it touches.
INSERT INTO "schedule_exceptions" ("salon_id", "staff_id", "date", "kind", "note")
SELECT DISTINCT st."salon_id", t."staff_id", d::date, 'closed', t."reason"
FROM "staff_time_off" t
JOIN "staff" st ON st."id" = t."staff_id"
JOIN "salons" s ON s."id" = st."salon_id"
CROSS JOIN LATERAL generate_series(
  (t."starts_at" AT TIME ZONE s."time_zone")::date,
  ((t."ends_at" - interval '1 microsecond') AT TIME ZONE s."time_zone")::date,
  interval '1 day') d;--> statement-breakpoint
ALTER TABLE "staff_shifts" DISABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "staff_time_off" DISABLE ROW LEVEL SECURITY;--> statement-breakpoint
DROP TABLE "staff_shifts" CASCADE;--> statement-breakpoint
DROP TABLE "staff_time_off" CASCADE;--> statement-breakpoint
ALTER TABLE "bookings" DROP CONSTRAINT "bookings_status_valid";--> statement-breakpoint
ALTER TABLE "bookings" DROP CONSTRAINT "bookings_staff_no_overlap";--> statement-breakpoint
ALTER TABLE "booking_menus" DROP CONSTRAINT "booking_menus_booking_id_bookings_id_fk";--> statement-breakpoint
ALTER TABLE "booking_menus" DROP CONSTRAINT "booking_menus_menu_id_menus_id_fk";--> statement-breakpoint
ALTER TABLE "bookings" DROP CONSTRAINT "bookings_staff_id_staff_id_fk";--> statement-breakpoint
ALTER TABLE "bookings" DROP CONSTRAINT "bookings_user_id_users_id_fk";--> statement-breakpoint
DROP INDEX "bookings_staff_idx";--> statement-breakpoint
ALTER TABLE "bookings" ALTER COLUMN "user_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "booking_menus" DROP CONSTRAINT "booking_menus_booking_id_menu_id_pk";--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "booking_number" text;--> statement-breakpoint
-- Existing bookings get a number from their random id (hex digits are Crockford base32).
UPDATE "bookings" SET "booking_number" = upper(substr(md5("id"::text), 1, 4) || '-' || substr(md5("id"::text), 5, 4));--> statement-breakpoint
ALTER TABLE "bookings" ALTER COLUMN "booking_number" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "occupied_until" timestamp with time zone;--> statement-breakpoint
UPDATE "bookings" SET "occupied_until" = "ends_at";--> statement-breakpoint
ALTER TABLE "bookings" ALTER COLUMN "occupied_until" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "booking_menus" ADD COLUMN "salon_id" uuid;--> statement-breakpoint
ALTER TABLE "booking_menus" ADD COLUMN "position" smallint;--> statement-breakpoint
UPDATE "booking_menus" bm SET "salon_id" = b."salon_id",
  "position" = o."position"
FROM "bookings" b, (
  SELECT "booking_id", "menu_id", (row_number() OVER (PARTITION BY "booking_id" ORDER BY "name", "menu_id") - 1)::smallint AS "position"
  FROM "booking_menus") o
WHERE b."id" = bm."booking_id" AND o."booking_id" = bm."booking_id" AND o."menu_id" = bm."menu_id";--> statement-breakpoint
ALTER TABLE "booking_menus" ALTER COLUMN "salon_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "booking_menus" ALTER COLUMN "position" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "booking_menus" ADD CONSTRAINT "booking_menus_salon_id_booking_id_position_pk" PRIMARY KEY("salon_id","booking_id","position");--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "hold_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "source" text DEFAULT 'web' NOT NULL;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "customer_name" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "customer_kana" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "customer_phone" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "customer_email" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "idempotency_key" text;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "cancelled_by" text;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "cancel_reason" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "reminder_sent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_id_salon_unique" UNIQUE("id","salon_id");--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_salon_number_unique" UNIQUE("salon_id","booking_number");--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_salon_idempotency_unique" UNIQUE("salon_id","idempotency_key");--> statement-breakpoint
ALTER TABLE "menus" ADD CONSTRAINT "menus_id_salon_unique" UNIQUE("id","salon_id");--> statement-breakpoint
ALTER TABLE "staff" ADD CONSTRAINT "staff_id_salon_unique" UNIQUE("id","salon_id");--> statement-breakpoint
ALTER TABLE "salon_booking_settings" ADD CONSTRAINT "salon_booking_settings_salon_id_salons_id_fk" FOREIGN KEY ("salon_id") REFERENCES "public"."salons"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "salon_opening_hours" ADD CONSTRAINT "salon_opening_hours_salon_id_salons_id_fk" FOREIGN KEY ("salon_id") REFERENCES "public"."salons"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedule_exceptions" ADD CONSTRAINT "schedule_exceptions_salon_id_salons_id_fk" FOREIGN KEY ("salon_id") REFERENCES "public"."salons"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedule_exceptions" ADD CONSTRAINT "schedule_exceptions_staff_fk" FOREIGN KEY ("staff_id","salon_id") REFERENCES "public"."staff"("id","salon_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_schedules" ADD CONSTRAINT "staff_schedules_staff_fk" FOREIGN KEY ("staff_id","salon_id") REFERENCES "public"."staff"("id","salon_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "jobs_due_idx" ON "jobs" USING btree ("run_at") WHERE "jobs"."done_at" is null;--> statement-breakpoint
CREATE INDEX "schedule_exceptions_salon_date_idx" ON "schedule_exceptions" USING btree ("salon_id","date");--> statement-breakpoint
CREATE INDEX "staff_schedules_staff_idx" ON "staff_schedules" USING btree ("salon_id","staff_id","weekday");--> statement-breakpoint
ALTER TABLE "booking_menus" ADD CONSTRAINT "booking_menus_booking_fk" FOREIGN KEY ("booking_id","salon_id") REFERENCES "public"."bookings"("id","salon_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "booking_menus" ADD CONSTRAINT "booking_menus_menu_fk" FOREIGN KEY ("menu_id","salon_id") REFERENCES "public"."menus"("id","salon_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_staff_fk" FOREIGN KEY ("staff_id","salon_id") REFERENCES "public"."staff"("id","salon_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "booking_menus_menu_idx" ON "booking_menus" USING btree ("salon_id","menu_id");--> statement-breakpoint
CREATE INDEX "bookings_hold_expiry_idx" ON "bookings" USING btree ("hold_expires_at") WHERE "bookings"."status" = 'held';--> statement-breakpoint
CREATE INDEX "bookings_staff_idx" ON "bookings" USING btree ("salon_id","staff_id","starts_at");--> statement-breakpoint
ALTER TABLE "booking_menus" ADD CONSTRAINT "booking_menus_position_nonnegative" CHECK ("booking_menus"."position" >= 0);--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_occupied_after_end" CHECK ("bookings"."occupied_until" >= "bookings"."ends_at");--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_source_valid" CHECK ("bookings"."source" in ('web', 'phone', 'walk_in'));--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_cancelled_by_valid" CHECK ("bookings"."cancelled_by" is null or "bookings"."cancelled_by" in ('user', 'salon', 'system'));--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_hold_expiry_iff_held" CHECK (("bookings"."status" = 'held') = ("bookings"."hold_expires_at" is not null));--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_number_format" CHECK ("bookings"."booking_number" ~ '^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$');--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_status_valid" CHECK ("bookings"."status" in ('held', 'confirmed', 'cancelled_by_user', 'cancelled_by_salon', 'completed', 'no_show'));--> statement-breakpoint
ALTER TABLE "salons" DROP COLUMN "opening_hours";--> statement-breakpoint
-- One opening interval may not overlap another of the same salon and weekday.
ALTER TABLE "salon_opening_hours" ADD CONSTRAINT "salon_opening_hours_no_overlap"
  EXCLUDE USING gist ("salon_id" WITH =, "weekday" WITH =,
    tsrange(date '2000-01-01' + "opens", date '2000-01-01' + "closes", '[)') WITH &&);--> statement-breakpoint
-- A stylist's intervals may not overlap on a weekday while their validity periods overlap.
ALTER TABLE "staff_schedules" ADD CONSTRAINT "staff_schedules_no_overlap"
  EXCLUDE USING gist ("salon_id" WITH =, "staff_id" WITH =, "weekday" WITH =,
    tsrange(date '2000-01-01' + "starts_at", date '2000-01-01' + "ends_at", '[)') WITH &&,
    daterange("valid_from", "valid_until", '[]') WITH &&);--> statement-breakpoint
-- No double booking: rows in an occupying status (occupyingStatuses in
-- server/db/schema/bookings.ts; a test compares the two) may not overlap on
-- [starts_at, occupied_until) for one salon and stylist, so the buffer after
-- a booking is enforced too. salon_id first: the distribution column.
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_staff_no_overlap"
  EXCLUDE USING gist ("salon_id" WITH =, "staff_id" WITH =,
    tstzrange("starts_at", "occupied_until", '[)') WITH &&)
  WHERE ("status" IN ('held', 'confirmed', 'completed'));
