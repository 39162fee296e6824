ALTER TABLE "bookings" ADD COLUMN "holder_ip" text;--> statement-breakpoint
CREATE INDEX "bookings_hold_browser_idx" ON "bookings" USING btree ("holder_key_hash") WHERE "bookings"."holder_key_hash" is not null;--> statement-breakpoint
CREATE INDEX "bookings_guest_hold_ip_idx" ON "bookings" USING btree ("holder_ip") WHERE "bookings"."holder_ip" is not null;--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_holder_ip_only_guest_holds" CHECK ("bookings"."holder_ip" is null or ("bookings"."status" = 'held' and "bookings"."user_id" is null));