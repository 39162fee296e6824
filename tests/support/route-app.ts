import { createStaticHandler, type RouterContextProvider } from "react-router";
import type { AccountServices } from "../../server/accounts/account-services";
import { createAccountServices } from "../../server/accounts/account-services";
import { loadConfig } from "../../server/config";
import { createHttpApp } from "../../server/http/app";
import { createLogger } from "../../server/logger";
import { ORIGIN } from "./accounts";
import type { TestDatabase } from "./test-database";

type RouteModule = {
  loader?: (args: never) => unknown;
  action?: (args: never) => unknown;
};

/**
 * The real Hono app (middleware, auth, cross-site checks) in front of the
 * real loaders and actions of the given route modules, run by React
 * Router's static handler instead of the built server bundle. A redirect
 * comes back as it is; any other answer as JSON
 * `{ status, loaderData, actionData, errors }` with the route's status, so
 * tests see what a page would have been given.
 */
export function createRouteApp(
  database: TestDatabase,
  routes: { path: string; module: RouteModule }[],
  env: Record<string, string> = {},
) {
  const config = loadConfig({
    PUBLIC_URL: ORIGIN,
    TRUST_PROXY: "true",
    LOG_LEVEL: "silent",
    ...env,
  });
  const accounts: AccountServices = createAccountServices(database.db, config);
  const handler = createStaticHandler(
    routes.map(({ path, module }, index) => ({
      id: `route-${index}`,
      path,
      loader: module.loader as never,
      action: module.action as never,
    })),
  );
  const app = createHttpApp({
    config,
    database,
    log: createLogger("silent"),
    accounts,
    handleRequest: async (request: Request, context: RouterContextProvider) => {
      const result = await handler.query(request, { requestContext: context });
      if (result instanceof Response) return result;
      const errors = result.errors
        ? Object.values(result.errors).map((error) =>
            error && typeof error === "object" && "status" in error
              ? {
                  status: (error as { status: number }).status,
                  data: (error as { data?: unknown }).data,
                }
              : { message: String(error) },
          )
        : null;
      return Response.json(
        {
          status: result.statusCode,
          loaderData: Object.values(result.loaderData)[0] ?? null,
          actionData: result.actionData ? Object.values(result.actionData)[0] : null,
          errors,
        },
        { status: result.statusCode },
      );
    },
  });
  return { app, accounts, config };
}
