ALTER TABLE "salon_photos" ADD COLUMN "staff_id" uuid;--> statement-breakpoint
ALTER TABLE "salon_photos" ADD COLUMN "menu_id" uuid;--> statement-breakpoint
ALTER TABLE "salon_photos" ADD CONSTRAINT "salon_photos_staff_id_staff_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "salon_photos" ADD CONSTRAINT "salon_photos_menu_id_menus_id_fk" FOREIGN KEY ("menu_id") REFERENCES "public"."menus"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "salon_photos_staff_idx" ON "salon_photos" USING btree ("staff_id");--> statement-breakpoint
CREATE INDEX "salon_photos_menu_idx" ON "salon_photos" USING btree ("menu_id");