import { createServer, type ViteDevServer } from "vite";

const workerVite = Symbol.for("salon-navi.tests.worker-vite");
type WorkerGlobal = typeof globalThis & { [workerVite]?: Promise<ViteDevServer> };

/**
 * The Vite server that loads the routes and server/app.ts for the
 * integration tests of this Vitest worker. Starting one takes 2–4 s (most of
 * it transforming every route), so the files a worker runs share one instead
 * of starting their own (issue 38 §5): the integration projects run with
 * `isolate: false`, and this lives on globalThis in case a file runs isolated.
 * Sharing is safe because each test builds its own app over the loaded
 * modules (createServerApp: its config, database and caches), and the
 * modules' own caches are keyed by the database, the request or the build.
 * It is never closed: it watches nothing, and the worker's end ends it.
 */
export function workerViteServer(): Promise<ViteDevServer> {
  const global = globalThis as WorkerGlobal;
  global[workerVite] ??= createServer({
    server: { middlewareMode: true, hmr: false, watch: null },
    appType: "custom",
    logLevel: "silent",
  });
  return global[workerVite];
}
