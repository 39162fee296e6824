CREATE TABLE "salon_members" (
	"salon_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"role" text NOT NULL,
	"staff_id" uuid,
	"invited_by" text,
	"version" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "salon_members_salon_id_user_id_pk" PRIMARY KEY("salon_id","user_id"),
	CONSTRAINT "salon_members_role_valid" CHECK ("salon_members"."role" in ('manager', 'reception', 'stylist')),
	CONSTRAINT "salon_members_stylist_has_staff" CHECK (("salon_members"."role" = 'stylist') = ("salon_members"."staff_id" is not null))
);
--> statement-breakpoint
ALTER TABLE "owner_invitations" ADD COLUMN "member_role" text;--> statement-breakpoint
ALTER TABLE "owner_invitations" ADD COLUMN "member_staff_id" uuid;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "occupied_from" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "nomination_fee" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "approval" text;--> statement-breakpoint
ALTER TABLE "salon_booking_settings" ADD COLUMN "buffer_before_minutes" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "salon_booking_settings" ADD COLUMN "max_live_bookings_per_customer" integer;--> statement-breakpoint
ALTER TABLE "salon_booking_settings" ADD COLUMN "requires_approval" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "staff" ADD COLUMN "nomination_fee" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "salon_members" ADD CONSTRAINT "salon_members_salon_id_salons_id_fk" FOREIGN KEY ("salon_id") REFERENCES "public"."salons"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "salon_members" ADD CONSTRAINT "salon_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "salon_members" ADD CONSTRAINT "salon_members_invited_by_users_id_fk" FOREIGN KEY ("invited_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "salon_members" ADD CONSTRAINT "salon_members_staff_fk" FOREIGN KEY ("staff_id","salon_id") REFERENCES "public"."staff"("id","salon_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "salon_members_user_idx" ON "salon_members" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "salon_members_staff_idx" ON "salon_members" USING btree ("staff_id","salon_id") WHERE "salon_members"."staff_id" is not null;--> statement-breakpoint
CREATE INDEX "salon_members_invited_by_idx" ON "salon_members" USING btree ("invited_by") WHERE "salon_members"."invited_by" is not null;--> statement-breakpoint
CREATE INDEX "bookings_pending_approval_idx" ON "bookings" USING btree ("salon_id","starts_at") WHERE "bookings"."approval" = 'pending';--> statement-breakpoint
ALTER TABLE "owner_invitations" ADD CONSTRAINT "owner_invitations_member_role_valid" CHECK ("owner_invitations"."member_role" is null or "owner_invitations"."member_role" in ('manager', 'reception', 'stylist'));--> statement-breakpoint
ALTER TABLE "owner_invitations" ADD CONSTRAINT "owner_invitations_member_stylist_has_staff" CHECK (("owner_invitations"."member_role" is not distinct from 'stylist') = ("owner_invitations"."member_staff_id" is not null));--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_occupied_from_before_start" CHECK ("bookings"."occupied_from" is null or ("bookings"."occupied_from" <= "bookings"."starts_at" and "bookings"."occupied_from" >= "bookings"."starts_at" - interval '4 hours'));--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_nomination_fee_nonnegative" CHECK ("bookings"."nomination_fee" >= 0);--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_approval_valid" CHECK ("bookings"."approval" is null or "bookings"."approval" in ('pending', 'approved', 'refused'));--> statement-breakpoint
ALTER TABLE "salon_booking_settings" ADD CONSTRAINT "salon_booking_settings_buffer_before_range" CHECK ("salon_booking_settings"."buffer_before_minutes" between 0 and 240);--> statement-breakpoint
ALTER TABLE "salon_booking_settings" ADD CONSTRAINT "salon_booking_settings_max_live_range" CHECK ("salon_booking_settings"."max_live_bookings_per_customer" is null or "salon_booking_settings"."max_live_bookings_per_customer" between 1 and 50);--> statement-breakpoint
ALTER TABLE "staff" ADD CONSTRAINT "staff_nomination_fee_range" CHECK ("staff"."nomination_fee" between 0 and 100000);