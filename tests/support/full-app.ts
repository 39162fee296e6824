import type { ServerBuild } from "react-router";
import type { AccountServices } from "../../server/accounts/account-services";
import { loadConfig } from "../../server/config";
import type { DatabaseHandle } from "../../server/db/client";
import type { HttpAppDeps } from "../../server/http/app";
import { createLogger } from "../../server/logger";
import type { TestDatabase } from "./test-database";
import { workerViteServer } from "./vite-server";

/**
 * The whole application — Hono and every React Router route — on a test
 * database, answered without a port. Routes are loaded through Vite as the
 * development server does (no `npm run build` needed), so a test sees
 * exactly the route table of app/routes.ts. The Vite server is the worker's
 * (tests/support/vite-server.ts): `close` leaves it running for the next file.
 */
export async function createFullApp(
  database: TestDatabase,
  env: Record<string, string> = {},
  accounts?: AccountServices,
) {
  const vite = await workerViteServer();
  const { createServerApp } = (await vite.ssrLoadModule(
    "/server/app.ts",
  )) as typeof import("../../server/app");
  const config = loadConfig({ LOG_LEVEL: "silent", ...env });
  const build = () =>
    vite.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>;
  /** The same app on another database handle: a second app server, with caches of its own. */
  const serverOn = (
    handle: DatabaseHandle,
    deps: Partial<Omit<HttpAppDeps, "handleRequest" | "config" | "database">> = {},
  ) => createServerApp({ config, database: handle, log: createLogger("silent"), ...deps }, build);
  const app = serverOn(database, { accounts });
  return { app, config, serverOn, close: async () => {} };
}
