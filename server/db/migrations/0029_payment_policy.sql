CREATE TABLE "salon_payment_policies" (
	"salon_id" uuid PRIMARY KEY NOT NULL,
	"mode" text DEFAULT 'none' NOT NULL,
	"deposit_kind" text,
	"deposit_value" integer,
	"same_day_percent" integer DEFAULT 0 NOT NULL,
	"day_before_percent" integer DEFAULT 0 NOT NULL,
	"no_show_percent" integer DEFAULT 0 NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "salon_payment_policies_mode_valid" CHECK ("salon_payment_policies"."mode" in ('none', 'full', 'deposit', 'card_only')),
	CONSTRAINT "salon_payment_policies_deposit_kind_valid" CHECK ("salon_payment_policies"."deposit_kind" is null or "salon_payment_policies"."deposit_kind" in ('percent', 'yen')),
	CONSTRAINT "salon_payment_policies_deposit_with_mode" CHECK (("salon_payment_policies"."mode" = 'deposit') = ("salon_payment_policies"."deposit_kind" is not null and "salon_payment_policies"."deposit_value" is not null)),
	CONSTRAINT "salon_payment_policies_deposit_range" CHECK ("salon_payment_policies"."deposit_value" is null or ("salon_payment_policies"."deposit_kind" = 'percent' and "salon_payment_policies"."deposit_value" between 1 and 100) or ("salon_payment_policies"."deposit_kind" = 'yen' and "salon_payment_policies"."deposit_value" between 1 and 100000)),
	CONSTRAINT "salon_payment_policies_same_day_range" CHECK ("salon_payment_policies"."same_day_percent" between 0 and 100),
	CONSTRAINT "salon_payment_policies_day_before_range" CHECK ("salon_payment_policies"."day_before_percent" between 0 and 100),
	CONSTRAINT "salon_payment_policies_no_show_range" CHECK ("salon_payment_policies"."no_show_percent" between 0 and 100),
	CONSTRAINT "salon_payment_policies_note_length" CHECK (char_length("salon_payment_policies"."note") <= 200)
);
--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "payment_policy" jsonb;--> statement-breakpoint
ALTER TABLE "coupons" ADD COLUMN "prepayment_exempt" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "menus" ADD COLUMN "prepayment_exempt" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "salon_payment_policies" ADD CONSTRAINT "salon_payment_policies_salon_id_salons_id_fk" FOREIGN KEY ("salon_id") REFERENCES "public"."salons"("id") ON DELETE cascade ON UPDATE no action;