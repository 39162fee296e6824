-- A stylist cannot hold two bookings whose time overlaps. Cancelled and
-- no-show bookings free their time, so they are left out of the constraint.
-- Ranges are half-open ([start, end)) so back-to-back bookings are allowed.
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_staff_no_overlap"
  EXCLUDE USING gist ("staff_id" WITH =, tstzrange("starts_at", "ends_at", '[)') WITH &&)
  WHERE ("status" IN ('confirmed', 'completed'));
