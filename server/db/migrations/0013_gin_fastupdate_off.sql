DROP INDEX "salons_search_terms_idx";--> statement-breakpoint
DROP INDEX "salons_search_text_trgm_idx";--> statement-breakpoint
CREATE INDEX "salons_search_terms_idx" ON "salons" USING gin ("search_terms") WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "salons_search_text_trgm_idx" ON "salons" USING gin ("search_text" gin_trgm_ops) WITH (fastupdate=false);