import { parseSearchQuery } from "../common/search.schema";
import { openDatabase } from "../server/db/client";
import { ensureSearchTermsCurrent } from "../server/salons/search-terms-state.server";
import { loadSearchPage } from "../server/salons/search-page";
import { DISTINCT_SEARCHES } from "../bench/harness";
import { sql } from "drizzle-orm";
const h = await openDatabase("postgres://postgres@127.0.0.1:5432/bench_kept");
await h.migrate();
console.log("recomputed", await ensureSearchTermsCurrent(h.db));
await h.db.execute(sql`analyze salons`);
const now = new Date();
const queries = DISTINCT_SEARCHES.map((p) => parseSearchQuery(new URL(p, "http://x").searchParams));
for (const q of queries.slice(0, 50)) await loadSearchPage(h.db, q as any, now);
const times: [number, string][] = [];
for (let round = 0; round < 2; round++)
  for (let i = 0; i < queries.length; i++) {
    const a = performance.now();
    const r = await loadSearchPage(h.db, queries[i] as any, now);
    times.push([performance.now() - a, `${DISTINCT_SEARCHES[i]} total=${r.result.total} sugg=${r.suggestions.length}`]);
  }
const sorted = [...times].sort((a, b) => a[0] - b[0]);
console.log("n", sorted.length, "p50", sorted[sorted.length >> 1][0].toFixed(1), "p90", sorted[Math.floor(sorted.length * 0.9)][0].toFixed(1), "p99", sorted[Math.floor(sorted.length * 0.99)][0].toFixed(1));
const zero = times.filter(([, l]) => l.includes("total=0 "));
console.log("zero-result share", (zero.length / times.length).toFixed(2), "zero p50", zero.map((t) => t[0]).sort((a, b) => a - b)[zero.length >> 1]?.toFixed(1));
for (const [t, l] of sorted.slice(-8)) console.log(t.toFixed(1), decodeURIComponent(l));
await h.close();
