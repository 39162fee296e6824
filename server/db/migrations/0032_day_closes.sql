CREATE TABLE "day_closes" (
	"salon_id" uuid NOT NULL,
	"date" date NOT NULL,
	"status" text NOT NULL,
	"checkout_count" integer NOT NULL,
	"sales_total" integer NOT NULL,
	"cash_amount" integer NOT NULL,
	"card_amount" integer NOT NULL,
	"qr_amount" integer NOT NULL,
	"prepaid_amount" integer NOT NULL,
	"cash_received" integer NOT NULL,
	"change_given" integer NOT NULL,
	"refund_count" integer NOT NULL,
	"refund_amount" integer NOT NULL,
	"opening_float" integer NOT NULL,
	"expected_cash" integer NOT NULL,
	"counted_cash" integer NOT NULL,
	"difference" integer NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"closed_by" text,
	"closed_at" timestamp with time zone NOT NULL,
	"reopened_by" text,
	"reopened_at" timestamp with time zone,
	CONSTRAINT "day_closes_pkey" PRIMARY KEY("salon_id","date"),
	CONSTRAINT "day_closes_status_valid" CHECK ("day_closes"."status" in ('closed', 'reopened')),
	CONSTRAINT "day_closes_amounts_nonnegative" CHECK ("day_closes"."checkout_count" >= 0 and "day_closes"."sales_total" >= 0 and "day_closes"."cash_amount" >= 0 and "day_closes"."card_amount" >= 0 and "day_closes"."qr_amount" >= 0 and "day_closes"."prepaid_amount" >= 0 and "day_closes"."cash_received" >= 0 and "day_closes"."change_given" >= 0 and "day_closes"."refund_count" >= 0 and "day_closes"."refund_amount" >= 0),
	CONSTRAINT "day_closes_methods_sum" CHECK ("day_closes"."sales_total" = "day_closes"."cash_amount" + "day_closes"."card_amount" + "day_closes"."qr_amount" + "day_closes"."prepaid_amount"),
	CONSTRAINT "day_closes_float_range" CHECK ("day_closes"."opening_float" between 0 and 1000000),
	CONSTRAINT "day_closes_counted_range" CHECK ("day_closes"."counted_cash" between 0 and 100000000),
	CONSTRAINT "day_closes_expected_sum" CHECK ("day_closes"."expected_cash" = "day_closes"."opening_float" + "day_closes"."cash_amount"),
	CONSTRAINT "day_closes_difference" CHECK ("day_closes"."difference" = "day_closes"."counted_cash" - "day_closes"."expected_cash"),
	CONSTRAINT "day_closes_note_length" CHECK (char_length("day_closes"."note") <= 200),
	CONSTRAINT "day_closes_reopened" CHECK ("day_closes"."status" = 'closed' or "day_closes"."reopened_at" is not null)
);
--> statement-breakpoint
ALTER TABLE "day_closes" ADD CONSTRAINT "day_closes_salon_id_salons_id_fk" FOREIGN KEY ("salon_id") REFERENCES "public"."salons"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "day_closes" ADD CONSTRAINT "day_closes_closed_by_users_id_fk" FOREIGN KEY ("closed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "day_closes" ADD CONSTRAINT "day_closes_reopened_by_users_id_fk" FOREIGN KEY ("reopened_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "day_closes_closed_by_idx" ON "day_closes" USING btree ("closed_by");--> statement-breakpoint
CREATE INDEX "day_closes_reopened_by_idx" ON "day_closes" USING btree ("reopened_by");