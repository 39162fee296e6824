import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { parseSearchQuery } from "../../common/search.schema";
import { salons, searchTermsState } from "../../server/db/schema";
import { searchSalons } from "../../server/salons/search";
import {
  ensureSearchTermsCurrent,
  searchTermsFingerprint,
} from "../../server/salons/search-terms-state.server";
import { vocabulary } from "../../server/search/vocabulary";
import { buildMenu, buildSalon } from "../support/builders";
import { withTestDatabase } from "../support/test-database";

const database = withTestDatabase();

const found = async (q: string) =>
  (await searchSalons(database.db, parseSearchQuery(new URLSearchParams({ q })))).salons.map(
    (salon) => salon.slug,
  );

describe("ensureSearchTermsCurrent", () => {
  it("recomputes stale search terms when the dictionary's fingerprint differs, then stops", async () => {
    const { db } = database;
    const salon = await buildSalon(db, { slug: "state-a", genre: "hair" });
    await buildMenu(db, salon.id, { name: "髪質改善トリートメント" });
    await db.insert(searchTermsState).values({ id: 1, fingerprint: "an older dictionary" });
    // As a deploy before this dictionary (or the migration adding the column) left them.
    await db.update(salons).set({ searchTerms: [] }).where(eq(salons.id, salon.id));
    expect(await found("トリートメント")).toEqual([]);

    expect(await ensureSearchTermsCurrent(db)).toBe(1);
    const [row] = await db.select().from(salons).where(eq(salons.id, salon.id));
    expect(row?.searchTerms).toEqual(["g:hair", "k:トリートメント"]);
    expect(await found("トリートメント")).toEqual(["state-a"]);
    const [state] = await db.select().from(searchTermsState);
    expect(state?.fingerprint).toBe(searchTermsFingerprint());

    // Current now: nothing to do.
    await db.update(salons).set({ searchTerms: [] }).where(eq(salons.id, salon.id));
    expect(await ensureSearchTermsCurrent(db)).toBe(0);
    expect(await found("トリートメント")).toEqual([]);
  });

  it("runs on a database that never recorded a fingerprint", async () => {
    const { db } = database;
    await db.delete(searchTermsState);
    expect(await ensureSearchTermsCurrent(db)).toBeGreaterThan(0);
    expect(await db.$count(searchTermsState)).toBe(1);
  });

  it("changes with a keyword entry's spellings", () => {
    const changed = vocabulary.map((entry) =>
      entry.kind === "keyword" && entry.canonical === "カット"
        ? { ...entry, searchFor: ["カット", "散髪"] }
        : entry,
    );
    expect(searchTermsFingerprint(changed)).not.toBe(searchTermsFingerprint());
    expect(searchTermsFingerprint([...vocabulary])).toBe(searchTermsFingerprint());
  });
});

describe("the search's GIN indexes", () => {
  it("keep no pending list (fastupdate off), so bulk writes never slow the next searches", async () => {
    const rows = await database.db.execute(sql`
      select c.relname, c.reloptions from pg_class c
      where c.relname in ('salons_search_terms_idx', 'salons_search_text_trgm_idx')
      order by c.relname`);
    const found = (rows as unknown as { rows: { relname: string; reloptions: string[] | null }[] })
      .rows;
    expect(found.map((row) => [row.relname, row.reloptions])).toEqual([
      ["salons_search_terms_idx", ["fastupdate=false"]],
      ["salons_search_text_trgm_idx", ["fastupdate=false"]],
    ]);
  });
});
