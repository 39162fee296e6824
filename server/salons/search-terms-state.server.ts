import { createHash } from "node:crypto";
import { asc, gt, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { salons, searchTermsState } from "../db/schema";
import { keywordForms, SEARCH_TERMS_VERSION } from "../search/search-terms";
import { type VocabularyEntry, vocabulary } from "../search/vocabulary";
import { recomputeSalonsDerived } from "./derived.server";

/**
 * Stored salons.search_terms hold the dictionary of the deploy that wrote
 * them (decision 0023). A deploy that changes a keyword entry (a new
 * spelling in searchFor, a new keyword) or the token code would leave them
 * stale, so at start the fingerprint of both is compared with the stored
 * one and, when it differs, every salon's derived columns are recomputed.
 */

/** Salons per transaction of the recompute. */
const CHUNK = 1000;

/** A hash of the dictionary's keyword entries (their tokens and spellings) and the token version. */
export function searchTermsFingerprint(entries: readonly VocabularyEntry[] = vocabulary): string {
  const hash = createHash("sha256");
  hash.update(`v${SEARCH_TERMS_VERSION}\n`);
  for (const keyword of keywordForms(entries)) {
    hash.update(`${keyword.token}\t${keyword.forms.join("\t")}\n`);
  }
  return hash.digest("hex").slice(0, 32);
}

/**
 * Recomputes every salon's search terms when they were written with another
 * dictionary (or never: right after the migration that added them), in
 * chunks of one transaction each, then records the fingerprint. Returns how
 * many salons were recomputed (0 when current). Interrupted, it starts over
 * on the next start; two servers starting at once both recompute, which
 * is wasteful but harmless (the same values).
 */
export async function ensureSearchTermsCurrent(
  db: Database,
  fingerprint: string = searchTermsFingerprint(),
): Promise<number> {
  const [state] = await db.select().from(searchTermsState);
  if (state?.fingerprint === fingerprint) return 0;
  let recomputed = 0;
  let after: string | undefined;
  for (;;) {
    const chunk = await db
      .select({ id: salons.id })
      .from(salons)
      .where(after ? gt(salons.id, after) : undefined)
      .orderBy(asc(salons.id))
      .limit(CHUNK);
    if (chunk.length === 0) break;
    const ids = chunk.map((row) => row.id);
    await db.transaction((tx) => recomputeSalonsDerived(tx, ids));
    recomputed += ids.length;
    after = ids[ids.length - 1];
  }
  await db
    .insert(searchTermsState)
    .values({ id: 1, fingerprint })
    .onConflictDoUpdate({
      target: searchTermsState.id,
      set: { fingerprint, updatedAt: sql`now()` },
    });
  // The planner estimates `@>` from the column's element statistics: new
  // tokens need them now, not at autovacuum's next pass.
  if (recomputed > 0) await db.execute(sql`analyze salons`);
  return recomputed;
}
