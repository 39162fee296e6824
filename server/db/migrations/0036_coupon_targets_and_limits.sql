ALTER TABLE "bookings" ADD COLUMN "student_declared" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "coupons" ADD COLUMN "target" text DEFAULT 'all' NOT NULL;--> statement-breakpoint
ALTER TABLE "coupons" ADD COLUMN "once_per_customer" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "coupons" ADD COLUMN "weekdays" integer DEFAULT 127 NOT NULL;--> statement-breakpoint
ALTER TABLE "coupons" ADD COLUMN "from_minute" integer;--> statement-breakpoint
ALTER TABLE "coupons" ADD COLUMN "until_minute" integer;--> statement-breakpoint
ALTER TABLE "coupons" ADD COLUMN "staff_id" uuid;--> statement-breakpoint
ALTER TABLE "coupons" ADD COLUMN "student_only" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "coupons" ADD CONSTRAINT "coupons_staff_fk" FOREIGN KEY ("staff_id","salon_id") REFERENCES "public"."staff"("id","salon_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coupons" ADD CONSTRAINT "coupons_target_valid" CHECK ("coupons"."target" in ('new', 'returning', 'all'));--> statement-breakpoint
ALTER TABLE "coupons" ADD CONSTRAINT "coupons_weekdays_range" CHECK ("coupons"."weekdays" between 1 and 127);--> statement-breakpoint
ALTER TABLE "coupons" ADD CONSTRAINT "coupons_hours_valid" CHECK (("coupons"."from_minute" is null and "coupons"."until_minute" is null) or ("coupons"."from_minute" >= 0 and "coupons"."from_minute" < "coupons"."until_minute" and "coupons"."until_minute" <= 1440));--> statement-breakpoint
-- 新規限定 becomes the target 新規 (decision 0087).
UPDATE "coupons" SET "target" = 'new' WHERE "new_customers_only";--> statement-breakpoint
ALTER TABLE "coupons" DROP COLUMN "new_customers_only";--> statement-breakpoint
CREATE INDEX "coupons_staff_idx" ON "coupons" USING btree ("staff_id","salon_id") WHERE "coupons"."staff_id" is not null;
