import type { ServerBuild } from "react-router";
import type { DatabaseHandle } from "../../server/db/client";
import type { HttpAppDeps } from "../../server/http/app";
import { workerViteServer } from "./vite-server";

/**
 * The whole site as the server runs it, real React Router routes included,
 * callable with app.request() and no port. The routes and server/app.ts are
 * loaded through one Vite server (as scripts/dev.ts does), so the loaders read
 * the same appContext key Hono sets. Slower to start than the stand-in of
 * tests/support/accounts.ts: for tests of what a route does with a request.
 */
export async function createRouterApp(
  database: DatabaseHandle,
  env: Record<string, string> = {},
  /** Parts of the server a test gives its own (the LINE channel of /dev/line). */
  deps: Pick<HttpAppDeps, "line"> = {},
) {
  const vite = await workerViteServer();
  const { createServerApp } = (await vite.ssrLoadModule(
    "/server/app.ts",
  )) as typeof import("../../server/app");
  const { loadConfig } = (await vite.ssrLoadModule(
    "/server/config.ts",
  )) as typeof import("../../server/config");
  const { createLogger } = (await vite.ssrLoadModule(
    "/server/logger.ts",
  )) as typeof import("../../server/logger");
  const config = loadConfig({
    PUBLIC_URL: "http://localhost:3000",
    TRUST_PROXY: "true",
    LOG_LEVEL: "silent",
    PAGE_CACHE_ENTRIES: "0",
    ...env,
  });
  const app = createServerApp(
    { config, database, log: createLogger("silent"), ...deps },
    () => vite.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>,
  );
  return { app, config, close: async () => {} };
}
