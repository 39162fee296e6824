CREATE TABLE "payment_discrepancies" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"provider_object" text NOT NULL,
	"provider_id" text NOT NULL,
	"payment_id" uuid,
	"salon_id" uuid,
	"our_amount" integer,
	"provider_amount" integer,
	"our_status" text,
	"provider_status" text,
	"note" text NOT NULL,
	"found_on" date NOT NULL,
	"found_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL,
	"resolved_at" timestamp with time zone,
	"resolution" text,
	"resolved_by" text,
	"resolution_note" text,
	CONSTRAINT "payment_discrepancies_subject" UNIQUE("kind","provider_id"),
	CONSTRAINT "payment_discrepancies_kind_valid" CHECK ("payment_discrepancies"."kind" in ('missing_here', 'missing_there', 'amount_mismatch', 'status_mismatch')),
	CONSTRAINT "payment_discrepancies_resolution" CHECK (("payment_discrepancies"."resolved_at" is null) = ("payment_discrepancies"."resolution" is null) and ("payment_discrepancies"."resolution" is null or "payment_discrepancies"."resolution" in ('auto', 'admin')))
);
--> statement-breakpoint
CREATE TABLE "payment_reconciliations" (
	"day" date PRIMARY KEY NOT NULL,
	"range_from" timestamp with time zone NOT NULL,
	"range_before" timestamp with time zone NOT NULL,
	"payments_checked" integer NOT NULL,
	"refunds_checked" integer NOT NULL,
	"found" integer NOT NULL,
	"fixed" integer NOT NULL,
	"ran_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payment_discrepancies" ADD CONSTRAINT "payment_discrepancies_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_discrepancies" ADD CONSTRAINT "payment_discrepancies_salon_id_salons_id_fk" FOREIGN KEY ("salon_id") REFERENCES "public"."salons"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_discrepancies" ADD CONSTRAINT "payment_discrepancies_resolved_by_users_id_fk" FOREIGN KEY ("resolved_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payment_discrepancies_open_idx" ON "payment_discrepancies" USING btree ("resolved_at","found_at");--> statement-breakpoint
CREATE INDEX "payment_discrepancies_payment_idx" ON "payment_discrepancies" USING btree ("payment_id");--> statement-breakpoint
CREATE INDEX "payment_discrepancies_salon_idx" ON "payment_discrepancies" USING btree ("salon_id");--> statement-breakpoint
CREATE INDEX "payment_discrepancies_resolved_by_idx" ON "payment_discrepancies" USING btree ("resolved_by");