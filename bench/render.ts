import { existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ServerBuild } from "react-router";
import { loadConfig } from "../server/config";
import { openDatabase } from "../server/db/client";
import { createLogger } from "../server/logger";
import { DISTINCT_SEARCHES } from "./harness";

/**
 * The server's time to render a search page (React SSR and the loader data
 * written into it), apart from the query: run by bench/search.ts as a child
 * process with NODE_ENV=production (React's production build, as the server
 * runs it) and DATABASE_URL set, on the built server (`npm run build`); the
 * search route's loader runs once per URL and then returns the same data,
 * so every timed request is the page minus its query. Prints one JSON line.
 */
const RUNS = Number(process.env.BENCH_RENDER_RUNS ?? 30);

if (!existsSync("build/server/index.js")) throw new Error("run npm run build first");
const built = (await import(
  pathToFileURL(path.resolve("build/server/index.js")).href
)) as typeof import("../server/app");
{
  const build = await built.loadServerBuild();
  // The search route's loader, answered from memory after the first call for each URL.
  const searchRouteId = "routes/salons.search";
  const route = build.routes[searchRouteId];
  if (!route) throw new Error(`no route ${searchRouteId}`);
  const realLoader = route.module.loader;
  if (!realLoader) throw new Error("the search route has no loader");
  const answers = new Map<string, unknown>();
  let loaderMs = 0;
  const rememberingLoader: typeof realLoader = async (args) => {
    const known = answers.get(args.request.url);
    if (known) return known;
    const started = performance.now();
    const data = await realLoader(args);
    loaderMs += performance.now() - started;
    answers.set(args.request.url, data);
    return data;
  };
  const renderOnly: ServerBuild = {
    ...build,
    routes: {
      ...build.routes,
      [searchRouteId]: { ...route, module: { ...route.module, loader: rememberingLoader } },
    },
  };

  const database = await openDatabase(process.env.DATABASE_URL ?? "");
  const config = loadConfig({
    ...process.env,
    PUBLIC_URL: "http://localhost:3000",
    LOG_LEVEL: "silent",
    PAGE_CACHE_ENTRIES: "0",
  });
  const app = built.createServerApp(
    { config, database, log: createLogger(process.env.BENCH_DEBUG ? "error" : "silent") },
    async () => renderOnly,
  );
  const paths = DISTINCT_SEARCHES.filter((_, index) => index % 24 === 0);
  const samples: number[] = [];
  let bytes = 0;
  for (const path of paths) {
    const first = await app.request(`http://localhost:3000${path}`);
    if (first.status !== 200) {
      if (process.env.BENCH_DEBUG)
        console.error(path, first.status, (await first.text()).slice(0, 300));
      continue; // a page past the last redirects
    }
    await first.arrayBuffer();
    for (let run = 0; run < RUNS; run++) {
      const started = performance.now();
      const response = await app.request(`http://localhost:3000${path}`);
      bytes = (await response.arrayBuffer()).byteLength;
      if (run >= 3) samples.push(performance.now() - started);
    }
  }
  samples.sort((a, b) => a - b);
  const at = (q: number) =>
    samples[Math.min(samples.length - 1, Math.floor(q * samples.length))] ?? 0;
  console.log(
    JSON.stringify({
      pages: answers.size,
      samples: samples.length,
      p50: at(0.5),
      p99: at(0.99),
      loaderMs: loaderMs / Math.max(answers.size, 1),
      bytes,
    }),
  );
  await database.close();
}
// Nothing of the app's (timers, pools) may keep the child alive once it has answered.
process.exit(0);
