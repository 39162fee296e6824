import { eq } from "drizzle-orm";
import { listenForInvalidation, notifyInvalidation } from "../cache/invalidation";
import { memoize } from "../cache/memo";
import type { Database, DatabaseHandle } from "../db/client";
import { redirectRules } from "../db/schema";

export type RedirectRule = { target: string; statusCode: 301 | 302 };

export type RedirectRuleCache = {
  lookup(path: string): Promise<RedirectRule | null>;
  invalidate(): void;
  /** Settles once the LISTEN for other servers' changes is in place (or has failed). */
  ready(): Promise<void>;
  /** Stops listening for changes (server shutdown). */
  close(): Promise<void>;
};

/**
 * Every change to redirect_rules NOTIFYs this channel in its transaction;
 * every app server LISTENs and drops its copy, so a change is seen
 * everywhere as soon as it commits (decision 0005, amended by 0020).
 */
export const REDIRECT_RULES_CHANNEL = "redirect_rules_changed";

/** Tells every app server's cache, on commit, that the rules changed. */
export async function notifyRedirectRulesChanged(db: Database) {
  await notifyInvalidation(db, REDIRECT_RULES_CHANNEL);
}

/** Rules match on the path alone: no query string, no trailing slash, no data suffix. */
export function normalizeRulePath(path: string): string {
  const withoutData = path.replace(/\.data$/, "").replace(/\/_root$/, "/");
  return withoutData.length > 1 ? withoutData.replace(/\/+$/, "") : withoutData;
}

/**
 * SPEC.md §2 route rules, asked on every navigation, so they are served from
 * memory: all enabled rules are loaded at once (the table is small) and kept
 * until a change is NOTIFYed (by any app server; `events` is the database
 * handle to LISTEN on) or the TTL passes, the fallback should the LISTEN
 * connection be down.
 */
export function createRedirectRuleCache(
  db: Database,
  {
    ttlMs = 60_000,
    now = Date.now,
    events,
  }: { ttlMs?: number; now?: () => number; events?: Pick<DatabaseHandle, "listen"> } = {},
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
  const listening = listenForInvalidation(
    events,
    REDIRECT_RULES_CHANNEL,
    rules.invalidate,
    "changes by other servers wait for the TTL",
  );
  return {
    async lookup(path) {
      return (await rules.get()).get(normalizeRulePath(path)) ?? null;
    },
    invalidate: rules.invalidate,
    ready: listening.ready,
    close: listening.close,
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
  await notifyRedirectRulesChanged(db);
  cache.invalidate();
}

export async function deleteRedirectRule(db: Database, cache: RedirectRuleCache, path: string) {
  await db.delete(redirectRules).where(eq(redirectRules.path, normalizeRulePath(path)));
  await notifyRedirectRulesChanged(db);
  cache.invalidate();
}
