ALTER TABLE "bookings" ADD COLUMN "holder_key_hash" text;--> statement-breakpoint
ALTER TABLE "salon_photos" ADD COLUMN "variants" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
CREATE INDEX "salons_admin_search_trgm_idx" ON "salons" USING gin (("name" || ' ' || "name_kana" || ' ' || "slug") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "salons_admin_updated_idx" ON "salons" USING btree ("updated_at","id");--> statement-breakpoint
CREATE INDEX "salons_admin_name_idx" ON "salons" USING btree ("name","id");--> statement-breakpoint
CREATE INDEX "salons_admin_created_idx" ON "salons" USING btree ("created_at","id");