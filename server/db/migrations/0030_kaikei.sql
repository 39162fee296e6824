CREATE TABLE "checkout_lines" (
	"salon_id" uuid NOT NULL,
	"checkout_id" uuid NOT NULL,
	"position" smallint NOT NULL,
	"kind" text NOT NULL,
	"item_id" uuid,
	"name" text NOT NULL,
	"list_price" integer NOT NULL,
	"unit_price" integer NOT NULL,
	"quantity" smallint DEFAULT 1 NOT NULL,
	"amount" integer NOT NULL,
	CONSTRAINT "checkout_lines_salon_id_checkout_id_position_pk" PRIMARY KEY("salon_id","checkout_id","position"),
	CONSTRAINT "checkout_lines_kind_valid" CHECK ("checkout_lines"."kind" in ('menu', 'nomination', 'product')),
	CONSTRAINT "checkout_lines_price_range" CHECK ("checkout_lines"."unit_price" between 0 and 1000000),
	CONSTRAINT "checkout_lines_quantity_range" CHECK ("checkout_lines"."quantity" between 1 and 99),
	CONSTRAINT "checkout_lines_amount" CHECK ("checkout_lines"."amount" = "checkout_lines"."unit_price" * "checkout_lines"."quantity")
);
--> statement-breakpoint
CREATE TABLE "checkout_payments" (
	"salon_id" uuid NOT NULL,
	"checkout_id" uuid NOT NULL,
	"method" text NOT NULL,
	"amount" integer NOT NULL,
	CONSTRAINT "checkout_payments_salon_id_checkout_id_method_pk" PRIMARY KEY("salon_id","checkout_id","method"),
	CONSTRAINT "checkout_payments_method_valid" CHECK ("checkout_payments"."method" in ('cash', 'card', 'qr', 'prepaid')),
	CONSTRAINT "checkout_payments_amount_positive" CHECK ("checkout_payments"."amount" > 0)
);
--> statement-breakpoint
CREATE TABLE "checkouts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"salon_id" uuid NOT NULL,
	"booking_id" uuid NOT NULL,
	"subtotal" integer NOT NULL,
	"discount" integer DEFAULT 0 NOT NULL,
	"total" integer NOT NULL,
	"tax" integer NOT NULL,
	"method" text NOT NULL,
	"cash_received" integer,
	"change" integer,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "checkouts_booking_unique" UNIQUE("salon_id","booking_id"),
	CONSTRAINT "checkouts_id_salon_unique" UNIQUE("id","salon_id"),
	CONSTRAINT "checkouts_method_valid" CHECK ("checkouts"."method" in ('cash', 'card', 'qr', 'prepaid', 'split')),
	CONSTRAINT "checkouts_discount_range" CHECK ("checkouts"."discount" between 0 and "checkouts"."subtotal"),
	CONSTRAINT "checkouts_total_sum" CHECK ("checkouts"."total" = "checkouts"."subtotal" - "checkouts"."discount"),
	CONSTRAINT "checkouts_total_range" CHECK ("checkouts"."total" between 0 and 3000000),
	CONSTRAINT "checkouts_tax_included" CHECK ("checkouts"."tax" = floor("checkouts"."total" * 10 / 110)),
	CONSTRAINT "checkouts_cash_change" CHECK (("checkouts"."cash_received" is null) = ("checkouts"."change" is null) and ("checkouts"."change" is null or "checkouts"."change" >= 0))
);
--> statement-breakpoint
CREATE TABLE "products" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"salon_id" uuid NOT NULL,
	"name" text NOT NULL,
	"price" integer NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "products_id_salon_unique" UNIQUE("id","salon_id"),
	CONSTRAINT "products_price_range" CHECK ("products"."price" between 0 and 1000000),
	CONSTRAINT "products_name_length" CHECK (char_length("products"."name") between 1 and 60)
);
--> statement-breakpoint
ALTER TABLE "salons" ADD COLUMN "invoice_number" text;--> statement-breakpoint
ALTER TABLE "checkout_lines" ADD CONSTRAINT "checkout_lines_checkout_fk" FOREIGN KEY ("checkout_id","salon_id") REFERENCES "public"."checkouts"("id","salon_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "checkout_payments" ADD CONSTRAINT "checkout_payments_checkout_fk" FOREIGN KEY ("checkout_id","salon_id") REFERENCES "public"."checkouts"("id","salon_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "checkouts" ADD CONSTRAINT "checkouts_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "checkouts" ADD CONSTRAINT "checkouts_booking_fk" FOREIGN KEY ("booking_id","salon_id") REFERENCES "public"."bookings"("id","salon_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_salon_id_salons_id_fk" FOREIGN KEY ("salon_id") REFERENCES "public"."salons"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "checkouts_salon_idx" ON "checkouts" USING btree ("salon_id","created_at");--> statement-breakpoint
CREATE INDEX "products_salon_idx" ON "products" USING btree ("salon_id","name");--> statement-breakpoint
ALTER TABLE "salons" ADD CONSTRAINT "salons_invoice_number_format" CHECK ("salons"."invoice_number" ~ '^T[0-9]{13}$');