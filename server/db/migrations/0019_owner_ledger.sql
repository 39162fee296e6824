CREATE TABLE "booking_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"salon_id" uuid NOT NULL,
	"booking_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"actor_kind" text NOT NULL,
	"actor_user_id" text,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "booking_events_kind_valid" CHECK ("booking_events"."kind" in ('created', 'confirmed', 'moved', 'menus_changed', 'arrived', 'completed', 'no_show', 'cancelled', 'note_changed')),
	CONSTRAINT "booking_events_actor_valid" CHECK ("booking_events"."actor_kind" in ('customer', 'salon', 'system'))
);
--> statement-breakpoint
CREATE TABLE "salon_customers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"salon_id" uuid NOT NULL,
	"user_id" text,
	"name" text DEFAULT '' NOT NULL,
	"kana" text DEFAULT '' NOT NULL,
	"phone" text DEFAULT '' NOT NULL,
	"email" text DEFAULT '' NOT NULL,
	"notes" text DEFAULT '' NOT NULL,
	"merged_into_id" uuid,
	"merged_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "salon_customers_id_salon_unique" UNIQUE("id","salon_id"),
	CONSTRAINT "salon_customers_not_merged_into_self" CHECK ("salon_customers"."merged_into_id" is distinct from "salon_customers"."id")
);
--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "kind" text DEFAULT 'booking' NOT NULL;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "cancel_category" text;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "salon_note" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "arrived_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "customer_id" uuid;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "salon_booking_settings" ADD COLUMN "notice_mail_enabled" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "salon_booking_settings" ADD COLUMN "notice_email" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "booking_events" ADD CONSTRAINT "booking_events_actor_user_id_users_id_fk" FOREIGN KEY ("actor_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "booking_events" ADD CONSTRAINT "booking_events_booking_fk" FOREIGN KEY ("booking_id","salon_id") REFERENCES "public"."bookings"("id","salon_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "salon_customers" ADD CONSTRAINT "salon_customers_salon_id_salons_id_fk" FOREIGN KEY ("salon_id") REFERENCES "public"."salons"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "salon_customers" ADD CONSTRAINT "salon_customers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "salon_customers" ADD CONSTRAINT "salon_customers_merged_into_fk" FOREIGN KEY ("merged_into_id","salon_id") REFERENCES "public"."salon_customers"("id","salon_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "booking_events_booking_idx" ON "booking_events" USING btree ("salon_id","booking_id","created_at");--> statement-breakpoint
CREATE INDEX "booking_events_salon_recent_idx" ON "booking_events" USING btree ("salon_id","created_at");--> statement-breakpoint
CREATE INDEX "booking_events_actor_idx" ON "booking_events" USING btree ("actor_user_id") WHERE "booking_events"."actor_user_id" is not null;--> statement-breakpoint
CREATE INDEX "salon_customers_merged_into_idx" ON "salon_customers" USING btree ("salon_id","merged_into_id") WHERE "salon_customers"."merged_into_id" is not null;--> statement-breakpoint
CREATE INDEX "salon_customers_user_idx" ON "salon_customers" USING btree ("user_id") WHERE "salon_customers"."user_id" is not null;--> statement-breakpoint
CREATE INDEX "salon_customers_phone_idx" ON "salon_customers" USING btree ("salon_id","phone");--> statement-breakpoint
CREATE INDEX "salon_customers_email_idx" ON "salon_customers" USING btree ("salon_id","email");--> statement-breakpoint
CREATE INDEX "salon_customers_kana_idx" ON "salon_customers" USING btree ("salon_id","kana");--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_customer_fk" FOREIGN KEY ("customer_id","salon_id") REFERENCES "public"."salon_customers"("id","salon_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bookings_customer_idx" ON "bookings" USING btree ("salon_id","customer_id") WHERE "bookings"."customer_id" is not null;--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_kind_valid" CHECK ("bookings"."kind" in ('booking', 'block'));--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_block_has_no_customer" CHECK ("bookings"."kind" = 'booking' or ("bookings"."user_id" is null and "bookings"."customer_id" is null and "bookings"."status" <> 'held'));--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_cancel_category_valid" CHECK ("bookings"."cancel_category" is null or "bookings"."cancel_category" in ('salon', 'customer_same_day', 'no_contact'));