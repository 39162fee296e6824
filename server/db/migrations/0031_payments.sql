CREATE TABLE "payment_events" (
	"event_id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"booking_id" uuid,
	"salon_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"amount" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"idempotency_key" text NOT NULL,
	"refund_of" uuid,
	"checkout_session_id" text,
	"checkout_expires_at" timestamp with time zone,
	"payment_intent_id" text,
	"setup_intent_id" text,
	"provider_customer_id" text,
	"payment_method_id" text,
	"provider_refund_id" text,
	"settled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payments_idempotency_key_unique" UNIQUE("idempotency_key"),
	CONSTRAINT "payments_checkout_session_id_unique" UNIQUE("checkout_session_id"),
	CONSTRAINT "payments_kind_valid" CHECK ("payments"."kind" in ('deposit', 'full', 'card', 'fee', 'refund')),
	CONSTRAINT "payments_status_valid" CHECK ("payments"."status" in ('pending', 'open', 'succeeded', 'expired', 'failed', 'refunded')),
	CONSTRAINT "payments_amount_range" CHECK ("payments"."amount" >= 0),
	CONSTRAINT "payments_refund_of" CHECK (("payments"."kind" = 'refund') = ("payments"."refund_of" is not null))
);
--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_salon_id_salons_id_fk" FOREIGN KEY ("salon_id") REFERENCES "public"."salons"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payments_booking_idx" ON "payments" USING btree ("booking_id");--> statement-breakpoint
CREATE INDEX "payments_salon_created_idx" ON "payments" USING btree ("salon_id","created_at");--> statement-breakpoint
CREATE INDEX "checkouts_created_by_idx" ON "checkouts" USING btree ("created_by");