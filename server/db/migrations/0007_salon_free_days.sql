CREATE TABLE "salon_free_days" (
	"salon_id" uuid NOT NULL,
	"date" date NOT NULL,
	"free_minutes" smallint[] NOT NULL,
	"first_free_minute" smallint,
	"last_free_minute" smallint,
	"free_slots_count" smallint NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "salon_free_days_salon_id_date_pk" PRIMARY KEY("salon_id","date"),
	CONSTRAINT "salon_free_days_count_check" CHECK ("salon_free_days"."free_slots_count" = coalesce(array_length("salon_free_days"."free_minutes", 1), 0))
);
--> statement-breakpoint
ALTER TABLE "salon_free_days" ADD CONSTRAINT "salon_free_days_salon_id_salons_id_fk" FOREIGN KEY ("salon_id") REFERENCES "public"."salons"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "salon_free_days_date_free_idx" ON "salon_free_days" USING btree ("date","salon_id") WHERE "salon_free_days"."free_slots_count" > 0;