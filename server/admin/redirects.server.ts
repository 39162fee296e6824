import { asc, eq, sql } from "drizzle-orm";
import { recordAudit } from "../audit/audit";
import type { Database } from "../db/client";
import { redirectRules } from "../db/schema";
import { DomainError, NotFoundError } from "../errors/domain-error";
import {
  matchRule,
  normalizeRulePath,
  notifyRedirectRulesChanged,
  type RedirectRuleCache,
  type RuleTable,
  ruleTable,
} from "../routing/redirect-rules";
import type { RedirectRuleForm } from "./redirects.schema";

type Actor = { id: string };

/** A refusal that belongs to one field of the form. */
export class RedirectRuleError extends DomainError {
  constructor(
    readonly field: "path" | "target",
    message: string,
    status = 422,
  ) {
    super("redirect_rule_invalid", message, status, { field });
  }
}

const RULE_MISSING = "このリダイレクトは見つかりませんでした。すでに削除された可能性があります。";
/** Longest chain followed when looking for a loop; longer chains are refused as well. */
const MAX_CHAIN = 20;

/** All rules, by source path. */
export function listRedirectRules(db: Database) {
  return db
    .select({
      id: redirectRules.id,
      path: redirectRules.path,
      target: redirectRules.target,
      statusCode: redirectRules.statusCode,
      enabled: redirectRules.enabled,
      includeSubpaths: redirectRules.includeSubpaths,
      updatedAt: redirectRules.updatedAt,
    })
    .from(redirectRules)
    .orderBy(asc(redirectRules.path));
}

export function findRedirectRule(db: Database, id: string) {
  return db
    .select()
    .from(redirectRules)
    .where(eq(redirectRules.id, id))
    .then((rows) => rows[0] ?? null);
}

/** The path a target lands on (targets are same-site by the schema), normalized as rules are. */
function landingPath(target: string) {
  return normalizeRulePath(new URL(target, "http://site.invalid").pathname);
}

/**
 * Refuses a rule that would send a visitor round in circles: its target is
 * its own source, or following the enabled rules from its target comes back
 * to it (A→B with B→A, or a longer chain). Rules are followed as requests
 * meet them (matchRule), so a salon's old-slug rule, which covers the paths
 * under it, takes part: /salons/new/x → /salons/old/x is refused while
 * /salons/old redirects to /salons/new. A rule that itself covers sub-paths
 * is also followed from each sub-path some rule starts under its target.
 */
async function assertNoLoop(
  tx: Database,
  rule: { id?: string; path: string; target: string; includeSubpaths?: boolean },
) {
  const rows = await tx
    .select({
      id: redirectRules.id,
      path: redirectRules.path,
      target: redirectRules.target,
      statusCode: redirectRules.statusCode,
      includeSubpaths: redirectRules.includeSubpaths,
    })
    .from(redirectRules)
    .where(eq(redirectRules.enabled, true));
  const others = rows.filter((row) => row.id !== rule.id);
  const table = ruleTable([
    ...others,
    { ...rule, statusCode: 301, includeSubpaths: rule.includeSubpaths ?? false },
  ]);
  const starts = [rule.path];
  if (rule.includeSubpaths) {
    const under = landingPath(rule.target);
    for (const other of others) {
      const source = normalizeRulePath(other.path);
      if (source.startsWith(`${under}/`)) starts.push(`${rule.path}${source.slice(under.length)}`);
    }
  }
  for (const start of starts) followChain(table, start);
}

/** Follows the rules from `start`; refuses when a path comes round again or the chain is too long. */
function followChain(table: RuleTable, start: string) {
  const chain = [start];
  let current = start;
  for (let step = 0; step <= MAX_CHAIN; step++) {
    const next = matchRule(table, current);
    if (!next) return;
    current = landingPath(next.target);
    chain.push(current);
    if (chain.indexOf(current) < chain.length - 1) {
      throw new RedirectRuleError(
        "target",
        step === 0
          ? "転送先が転送元と同じです。このままではページが表示できなくなります（ループ）。"
          : `転送がループになります（${chain.join(" → ")}）。転送先を変えてください。`,
      );
    }
  }
  throw new RedirectRuleError(
    "target",
    `転送が${MAX_CHAIN}回以上続きます（${chain.slice(0, 5).join(" → ")} …）。転送先を最終的なページにしてください。`,
  );
}

/** One change at a time: two admins adding A→B and B→A at once must not both pass the loop check. */
async function lockRules(tx: Database) {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('redirect_rules'))`);
}

async function assertSourceFree(tx: Database, path: string, exceptId?: string) {
  const [existing] = await tx
    .select({ id: redirectRules.id })
    .from(redirectRules)
    .where(eq(redirectRules.path, path));
  if (existing && existing.id !== exceptId) {
    throw new RedirectRuleError("path", "この転送元のリダイレクトはすでに登録されています。", 409);
  }
}

/** Adds a rule; every app server follows it once this commits. */
export async function createRedirectRule(
  db: Database,
  cache: RedirectRuleCache,
  input: RedirectRuleForm,
  actor: Actor,
  now: Date,
) {
  const created = await db.transaction(async (tx) => {
    await lockRules(tx);
    await assertSourceFree(tx, input.path);
    await assertNoLoop(tx, input);
    const [row] = await tx
      .insert(redirectRules)
      .values({ path: input.path, target: input.target, statusCode: input.statusCode })
      .returning();
    if (!row) throw new Error("insert returned nothing");
    await recordAudit(
      tx,
      {
        actorUserId: actor.id,
        action: "redirect_rule.create",
        targetType: "redirect_rule",
        targetId: row.id,
        after: { path: row.path, target: row.target, statusCode: row.statusCode },
      },
      now,
    );
    await notifyRedirectRulesChanged(tx);
    return row;
  });
  cache.invalidate();
  return created;
}

/** Changes a rule; the audit entry holds only the fields that changed. */
export async function updateRedirectRule(
  db: Database,
  cache: RedirectRuleCache,
  id: string,
  input: RedirectRuleForm,
  actor: Actor,
  now: Date,
) {
  const updated = await db.transaction(async (tx) => {
    await lockRules(tx);
    const [current] = await tx
      .select()
      .from(redirectRules)
      .where(eq(redirectRules.id, id))
      .for("update");
    if (!current) throw new NotFoundError(RULE_MISSING);
    await assertSourceFree(tx, input.path, id);
    await assertNoLoop(tx, { id, ...input, includeSubpaths: current.includeSubpaths });
    const before: Record<string, unknown> = {};
    const after: Record<string, unknown> = {};
    for (const key of ["path", "target", "statusCode"] as const) {
      if (current[key] !== input[key]) {
        before[key] = current[key];
        after[key] = input[key];
      }
    }
    if (Object.keys(after).length === 0) return current;
    const [row] = await tx
      .update(redirectRules)
      .set({ path: input.path, target: input.target, statusCode: input.statusCode })
      .where(eq(redirectRules.id, id))
      .returning();
    await recordAudit(
      tx,
      {
        actorUserId: actor.id,
        action: "redirect_rule.update",
        targetType: "redirect_rule",
        targetId: id,
        before,
        after,
      },
      now,
    );
    await notifyRedirectRulesChanged(tx);
    return row ?? current;
  });
  cache.invalidate();
  return updated;
}

export async function removeRedirectRule(
  db: Database,
  cache: RedirectRuleCache,
  id: string,
  actor: Actor,
  now: Date,
) {
  const removed = await db.transaction(async (tx) => {
    await lockRules(tx);
    const [row] = await tx.delete(redirectRules).where(eq(redirectRules.id, id)).returning();
    if (!row) throw new NotFoundError(RULE_MISSING);
    await recordAudit(
      tx,
      {
        actorUserId: actor.id,
        action: "redirect_rule.delete",
        targetType: "redirect_rule",
        targetId: id,
        before: { path: row.path, target: row.target, statusCode: row.statusCode },
      },
      now,
    );
    await notifyRedirectRulesChanged(tx);
    return row;
  });
  cache.invalidate();
  return removed;
}
