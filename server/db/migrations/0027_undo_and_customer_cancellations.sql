ALTER TABLE "booking_events" DROP CONSTRAINT "booking_events_kind_valid";--> statement-breakpoint
ALTER TABLE "bookings" DROP CONSTRAINT "bookings_cancel_category_valid";--> statement-breakpoint
ALTER TABLE "booking_events" ADD CONSTRAINT "booking_events_kind_valid" CHECK ("booking_events"."kind" in ('created', 'confirmed', 'moved', 'menus_changed', 'arrived', 'completed', 'no_show', 'cancelled', 'note_changed', 'undone'));--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_cancel_category_valid" CHECK ("bookings"."cancel_category" is null or "bookings"."cancel_category" in ('customer_advance', 'customer_same_day', 'no_contact', 'salon'));--> statement-breakpoint
-- A cancellation the salon entered for the customer's reason was stored as the salon's
-- (cancelled_by_salon): it is the customer's (decision 0065). cancelled_by stays 'salon',
-- who entered it; the category keeps why.
UPDATE "bookings" SET "status" = 'cancelled_by_user'
  WHERE "status" = 'cancelled_by_salon' AND "kind" = 'booking'
    AND "cancel_category" IN ('customer_same_day', 'no_contact');
