import { eq, like, or, sql } from "drizzle-orm";
import { recordAudit } from "../audit/audit";
import type { Database } from "../db/client";
import { redirectRules } from "../db/schema";
import {
  normalizeRulePath,
  type RedirectRuleCache,
  saveRedirectRule,
} from "../routing/redirect-rules";
import type { AdminActor } from "./salon-editor.server";

/**
 * A published salon's slug changed: its old address redirects (decision
 * 0017 and its amendment). Called inside updateSalon's transaction.
 */

const publicPath = (slug: string) => `/salons/${slug}`;

/**
 * The old public address now answers 301 to the new one, and so does every
 * path under it (/salons/old/confirm?menu=x → /salons/new/confirm?menu=x):
 * the rule covers sub-paths. Rules that sent visitors to the old address or
 * under it follow (one hop, never a chain), and rules from the new address
 * or under it (a slug given back) are removed: the salon's live pages are
 * never redirected, so nothing loops through them.
 */
export async function addSlugRedirect(
  tx: Database,
  redirects: RedirectRuleCache,
  salonId: string,
  oldSlug: string,
  newSlug: string,
  actor: AdminActor,
  now: Date,
) {
  const from = normalizeRulePath(publicPath(oldSlug));
  const to = publicPath(newSlug);
  // Slugs are [a-z0-9-], so they need no escaping inside LIKE patterns.
  await tx
    .delete(redirectRules)
    .where(or(eq(redirectRules.path, to), like(redirectRules.path, `${to}/%`)));
  await tx
    .update(redirectRules)
    .set({ target: sql`${to} || substr(${redirectRules.target}, ${from.length + 1})` })
    .where(
      or(
        eq(redirectRules.target, from),
        like(redirectRules.target, `${from}/%`),
        like(redirectRules.target, `${from}?%`),
        like(redirectRules.target, `${from}#%`),
      ),
    );
  await saveRedirectRule(tx, redirects, {
    path: from,
    target: to,
    statusCode: 301,
    includeSubpaths: true,
  });
  await recordAudit(
    tx,
    {
      actorUserId: actor.id,
      action: "salon.slug_redirect",
      targetType: "salon",
      targetId: salonId,
      salonId,
      before: { slug: oldSlug },
      after: { path: from, target: to, statusCode: 301, includeSubpaths: true },
    },
    now,
  );
}
