import pg from "pg";
const stats = new Map<string, { n: number; ms: number }>();
const orig = pg.Client.prototype.query;
(pg.Client.prototype as any).query = function (config: any, values: any, cb: any) {
  const text: string = typeof config === "string" ? config : config?.text ?? "";
  const key = text.replace(/\s+/g, " ").slice(0, 90);
  const a = performance.now();
  const done = () => { const s = stats.get(key) ?? { n: 0, ms: 0 }; s.n++; s.ms += performance.now() - a; stats.set(key, s); };
  if (typeof values === "function") { const f = values; values = (...x: any[]) => { done(); return f(...x); }; }
  else if (typeof cb === "function") { const f = cb; cb = (...x: any[]) => { done(); return f(...x); }; }
  else if (config && typeof config.callback === "function") { const f = config.callback; config.callback = (...x: any[]) => { done(); return f(...x); }; }
  const r = orig.call(this, config, values, cb);
  if (r && typeof r.then === "function") r.then(() => { const s = stats.get(key) ?? { n: 0, ms: 0 }; s.n++; s.ms += performance.now() - a; stats.set(key, s); }, () => {});
  return r;
};
const { parseSearchQuery } = await import("../common/search.schema");
const { openDatabase } = await import("../server/db/client");
const { loadSearchPage } = await import("../server/salons/search-page");
const { DISTINCT_SEARCHES } = await import("../bench/harness");
const h = await openDatabase("postgres://postgres@127.0.0.1:5432/bench_kept");
const now = new Date();
const queries = DISTINCT_SEARCHES.map((p) => parseSearchQuery(new URL(p, "http://x").searchParams));
for (const q of queries.slice(0, 50)) await loadSearchPage(h.db, q as any, now);
stats.clear();
for (const q of queries) await loadSearchPage(h.db, q as any, now);
console.log("size", stats.size);
const rows = [...stats].sort((a, b) => b[1].ms - a[1].ms).slice(0, 14);
for (const [k, s] of rows) console.log(s.ms.toFixed(0).padStart(7), "ms", String(s.n).padStart(5), (s.ms / s.n).toFixed(2).padStart(6), k);
await h.close();
