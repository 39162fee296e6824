ALTER TABLE "redirect_rules" ADD COLUMN "include_subpaths" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
-- Slug redirects made before this migration cover their salon's sub-paths too (decision 0017).
UPDATE "redirect_rules" AS "r" SET "include_subpaths" = true
FROM "audit_log" AS "a"
WHERE "a"."action" = 'salon.slug_redirect' AND "a"."after"->>'path' = "r"."path";
