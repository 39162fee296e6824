import type { ServerBuild } from "react-router";
import { createServer, type ViteDevServer } from "vite";
import type { AccountServices } from "../../server/accounts/account-services";
import { loadConfig } from "../../server/config";
import { createLogger } from "../../server/logger";
import type { TestDatabase } from "./test-database";

/**
 * The whole application — Hono and every React Router route — on a test
 * database, answered without a port. Routes are loaded through Vite as the
 * development server does (no `npm run build` needed), so a test sees
 * exactly the route table of app/routes.ts.
 */
export async function createFullApp(
  database: TestDatabase,
  env: Record<string, string> = {},
  accounts?: AccountServices,
) {
  const vite: ViteDevServer = await createServer({
    server: { middlewareMode: true, hmr: false, watch: null },
    appType: "custom",
    logLevel: "silent",
  });
  const { createServerApp } = (await vite.ssrLoadModule(
    "/server/app.ts",
  )) as typeof import("../../server/app");
  const config = loadConfig({ LOG_LEVEL: "silent", ...env });
  const app = createServerApp(
    { config, database, log: createLogger("silent"), accounts },
    () => vite.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>,
  );
  return { app, config, close: () => vite.close() };
}
