CREATE INDEX "owner_invitations_invited_by_idx" ON "owner_invitations" USING btree ("invited_by") WHERE "owner_invitations"."invited_by" is not null;--> statement-breakpoint
CREATE INDEX "bookings_coupon_idx" ON "bookings" USING btree ("coupon_id") WHERE "bookings"."coupon_id" is not null;--> statement-breakpoint
CREATE INDEX "audit_logs_actor_idx" ON "audit_logs" USING btree ("actor_user_id") WHERE "audit_logs"."actor_user_id" is not null;--> statement-breakpoint
CREATE INDEX "coupon_menus_menu_idx" ON "coupon_menus" USING btree ("menu_id");--> statement-breakpoint
CREATE INDEX "reviews_user_idx" ON "reviews" USING btree ("user_id") WHERE "reviews"."user_id" is not null;--> statement-breakpoint
CREATE INDEX "reviews_staff_idx" ON "reviews" USING btree ("staff_id") WHERE "reviews"."staff_id" is not null;--> statement-breakpoint
CREATE INDEX "schedule_exceptions_staff_idx" ON "schedule_exceptions" USING btree ("staff_id","salon_id");