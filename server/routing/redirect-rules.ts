import { eq } from "drizzle-orm";
import { memoize } from "../cache/memo";
import type { Database } from "../db/client";
import { redirectRules } from "../db/schema";

export type RedirectRule = { target: string; statusCode: 301 | 302 };

export type RedirectRuleCache = {
  lookup(path: string): Promise<RedirectRule | null>;
  invalidate(): void;
};

/** Rules match on the path alone: no query string, no trailing slash, no data suffix. */
export function normalizeRulePath(path: string): string {
  const withoutData = path.replace(/\.data$/, "").replace(/\/_root$/, "/");
  return withoutData.length > 1 ? withoutData.replace(/\/+$/, "") : withoutData;
}

/**
 * SPEC.md §2 route rules, asked on every navigation, so they are served from
 * memory: all enabled rules are loaded at once (the table is small) and kept
 * until a rule is saved or deleted through this module, or until the TTL
 * passes, which bounds how stale another app server's copy can be.
 */
export function createRedirectRuleCache(
  db: Database,
  { ttlMs = 60_000, now = Date.now }: { ttlMs?: number; now?: () => number } = {},
): RedirectRuleCache {
  const rules = memoize(
    async () => {
      const rows = await db
        .select({
          path: redirectRules.path,
          target: redirectRules.target,
          statusCode: redirectRules.statusCode,
        })
        .from(redirectRules)
        .where(eq(redirectRules.enabled, true));
      return new Map(
        rows.map((row) => [
          normalizeRulePath(row.path),
          { target: row.target, statusCode: row.statusCode === 301 ? 301 : 302 } as RedirectRule,
        ]),
      );
    },
    { ttlMs, now },
  );
  return {
    async lookup(path) {
      return (await rules.get()).get(normalizeRulePath(path)) ?? null;
    },
    invalidate: rules.invalidate,
  };
}

export type RedirectRuleInput = {
  path: string;
  target: string;
  statusCode: 301 | 302;
  enabled?: boolean;
};

export async function saveRedirectRule(
  db: Database,
  cache: RedirectRuleCache,
  input: RedirectRuleInput,
) {
  const values = { ...input, path: normalizeRulePath(input.path), enabled: input.enabled ?? true };
  await db
    .insert(redirectRules)
    .values(values)
    .onConflictDoUpdate({
      target: redirectRules.path,
      set: { target: values.target, statusCode: values.statusCode, enabled: values.enabled },
    });
  cache.invalidate();
}

export async function deleteRedirectRule(db: Database, cache: RedirectRuleCache, path: string) {
  await db.delete(redirectRules).where(eq(redirectRules.path, normalizeRulePath(path)));
  cache.invalidate();
}
