CREATE TABLE "search_terms_state" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"fingerprint" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "search_terms_state_one_row" CHECK ("search_terms_state"."id" = 1)
);
--> statement-breakpoint
DROP INDEX "salons_rating_idx";--> statement-breakpoint
DROP INDEX "salons_recommended_idx";--> statement-breakpoint
ALTER TABLE "salons" ADD COLUMN "search_terms" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
CREATE INDEX "salons_search_terms_idx" ON "salons" USING gin ("search_terms");--> statement-breakpoint
CREATE INDEX "salons_rating_idx" ON "salons" USING btree ("status","rating_average" DESC NULLS LAST,"review_count" DESC NULLS LAST,"slug","id","search_terms");--> statement-breakpoint
CREATE INDEX "salons_recommended_idx" ON "salons" USING btree ("status","recommended_score" DESC NULLS LAST,"review_count" DESC NULLS LAST,"slug","id","search_terms");