import { eq } from "drizzle-orm";
import { listenForInvalidation, notifyInvalidation } from "../cache/invalidation";
import { memoize } from "../cache/memo";
import type { Database, DatabaseHandle } from "../db/client";
import { redirectRules } from "../db/schema";

export type RedirectRule = { target: string; statusCode: 301 | 302 };

/** A stored rule as matching needs it; `includeSubpaths` also covers every path under the source. */
export type MatchableRule = RedirectRule & { includeSubpaths: boolean };
/** Enabled rules by normalized source path. */
export type RuleTable = ReadonlyMap<string, MatchableRule>;

export type RedirectRuleCache = {
  /** The redirect for a path; `search` ("?…") is carried over by rules that cover sub-paths. */
  lookup(path: string, search?: string): Promise<RedirectRule | null>;
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
 * The redirect for `path` under `rules`: its own rule, else the nearest rule
 * of a parent path that covers sub-paths (a salon's old slug, decision
 * 0017), whose target gets the rest of the path and the query string
 * (/salons/old/confirm?menu=x → /salons/new/confirm?menu=x). The one
 * matcher of the server, the client check (/api/route-rules) and the loop
 * check of decision 0020.
 */
export function matchRule(rules: RuleTable, path: string, search = ""): RedirectRule | null {
  const normalized = normalizeRulePath(path);
  const own = rules.get(normalized);
  if (own) {
    return own.includeSubpaths
      ? carryOver(own, "", search)
      : { target: own.target, statusCode: own.statusCode };
  }
  // Parents among the first few segments only: a hostile path of thousands
  // of slashes must not cost thousands of lookups on every request.
  const cuts: number[] = [];
  for (let cut = normalized.indexOf("/", 1); cut > 0 && cuts.length < MAX_PARENT_DEPTH; ) {
    cuts.push(cut);
    cut = normalized.indexOf("/", cut + 1);
  }
  for (const cut of cuts.reverse()) {
    const parent = rules.get(normalized.slice(0, cut));
    if (parent?.includeSubpaths) return carryOver(parent, normalized.slice(cut), search);
  }
  return null;
}

/** How many segments deep a rule covering sub-paths may start (a salon's is 2: /salons/slug). */
const MAX_PARENT_DEPTH = 16;

/**
 * The target with the rest of the path and the query string (the target's
 * own query, if it has one, wins). Null when the result would not be a
 * plain same-site path ("//host" or "/\host", which browsers read as
 * another host): such a request is not redirected at all.
 */
function carryOver(rule: MatchableRule, rest: string, search: string): RedirectRule | null {
  const split = rule.target.search(/[?#]/);
  const targetPath = split < 0 ? rule.target : rule.target.slice(0, split);
  const targetSuffix = split < 0 ? "" : rule.target.slice(split);
  const query = targetSuffix || (search.startsWith("?") && search.length > 1 ? search : "");
  const path = `${targetPath.replace(/\/+$/, "")}${rest}` || "/";
  if (rest.includes("\\") || !/^\/(?![/\\])/.test(path)) return null;
  return { target: `${path}${query}`, statusCode: rule.statusCode };
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
          includeSubpaths: redirectRules.includeSubpaths,
        })
        .from(redirectRules)
        .where(eq(redirectRules.enabled, true));
      return ruleTable(rows);
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
    async lookup(path, search) {
      return matchRule(await rules.get(), path, search);
    },
    invalidate: rules.invalidate,
    ready: listening.ready,
    close: listening.close,
  };
}

/** Rows of redirect_rules as a RuleTable. */
export function ruleTable(
  rows: { path: string; target: string; statusCode: number; includeSubpaths: boolean }[],
): RuleTable {
  return new Map(
    rows.map((row) => [
      normalizeRulePath(row.path),
      {
        target: row.target,
        statusCode: row.statusCode === 301 ? 301 : 302,
        includeSubpaths: row.includeSubpaths,
      },
    ]),
  );
}

export type RedirectRuleInput = {
  path: string;
  target: string;
  statusCode: 301 | 302;
  enabled?: boolean;
  includeSubpaths?: boolean;
};

export async function saveRedirectRule(
  db: Database,
  cache: RedirectRuleCache,
  input: RedirectRuleInput,
) {
  const values = {
    ...input,
    path: normalizeRulePath(input.path),
    enabled: input.enabled ?? true,
    includeSubpaths: input.includeSubpaths ?? false,
  };
  await db
    .insert(redirectRules)
    .values(values)
    .onConflictDoUpdate({
      target: redirectRules.path,
      set: {
        target: values.target,
        statusCode: values.statusCode,
        enabled: values.enabled,
        includeSubpaths: values.includeSubpaths,
      },
    });
  await notifyRedirectRulesChanged(db);
  cache.invalidate();
}

export async function deleteRedirectRule(db: Database, cache: RedirectRuleCache, path: string) {
  await db.delete(redirectRules).where(eq(redirectRules.path, normalizeRulePath(path)));
  await notifyRedirectRulesChanged(db);
  cache.invalidate();
}
