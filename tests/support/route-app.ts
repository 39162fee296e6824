import { createStaticHandler, matchPath, type RouterContextProvider } from "react-router";
import type { AccountServices } from "../../server/accounts/account-services";
import { createAccountServices } from "../../server/accounts/account-services";
import { requireLogin } from "../../server/accounts/guards";
import { signUpWithPassword } from "../../server/accounts/identity";
import { saveProfile } from "../../server/accounts/profile";
import { loadConfig } from "../../server/config";
import { appContext } from "../../server/context";
import { createHttpApp } from "../../server/http/app";
import { createLogger } from "../../server/logger";
import type { PaymentProvider } from "../../server/payments/provider.server";
import { browser, lastMailLink, ORIGIN, uniqueEmail } from "./accounts";
import type { TestDatabase } from "./test-database";

type RouteModule = {
  loader?: (args: never) => unknown;
  action?: (args: never) => unknown;
  default?: unknown;
};

/**
 * The real Hono app (middleware, auth, cross-site checks) in front of the
 * real loaders and actions of the given route modules, run by React
 * Router's static handler instead of the built server bundle. A redirect
 * comes back as it is; any other answer as JSON
 * `{ status, loaderData, actionData, errors }` with the route's status, so
 * tests see what a page would have been given. A route given with its
 * `layout` (the layout route of app/routes.ts it renders in, e.g.
 * /owner/salons/:id's frame) runs that loader too, beside its own: its data
 * comes back as `layoutData`.
 */
export function createRouteApp(
  database: TestDatabase,
  routes: { path: string; module: RouteModule; layout?: RouteModule }[],
  env: Record<string, string> = {},
  /** The payment provider the routes reach through the app context (none by default). */
  { payments = null }: { payments?: PaymentProvider | null } = {},
) {
  const config = loadConfig({
    PUBLIC_URL: ORIGIN,
    TRUST_PROXY: "true",
    LOG_LEVEL: "silent",
    ...env,
  });
  const accounts: AccountServices = createAccountServices(database.db, config);
  const handler = createStaticHandler(
    routes.map(({ path, module, layout }, index) => {
      const page = {
        id: `route-${index}`,
        path,
        loader: module.loader as never,
        action: module.action as never,
      };
      return layout
        ? { id: `layout-${index}`, loader: layout.loader as never, children: [page] }
        : page;
    }),
  );
  const app = createHttpApp({
    config,
    database,
    log: createLogger("silent"),
    accounts,
    payments,
    handleRequest: async (request: Request, context: RouterContextProvider) => {
      // What the root middleware does with input the HTTP layer refused (app/root.tsx).
      const { inputError } = context.get(appContext);
      if (inputError) {
        const { status, message, code } = inputError;
        return Response.json({ status, errors: [{ status, data: { code, message } }] }, { status });
      }
      // A resource route (no page, e.g. a file download) answers with its own Response.
      const path = new URL(request.url).pathname;
      const resource = routes.find(
        ({ path: pattern, module }) => !module.default && matchPath(pattern, path),
      );
      if (resource) {
        try {
          const answer = await handler.queryRoute(request, { requestContext: context });
          return answer instanceof Response ? answer : Response.json(answer);
        } catch (thrown) {
          // A guard's redirect or 404 thrown by a resource route, as the server answers it.
          if (thrown instanceof Response) return thrown;
          if (isDataWithResponseInit(thrown)) {
            return Response.json(thrown.data, { status: thrown.init?.status ?? 500 });
          }
          throw thrown;
        }
      }
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
      const page = result.matches.at(-1)?.route.id ?? "";
      const layout = result.matches.find((match) => match.route.id.startsWith("layout-"));
      return Response.json(
        {
          status: result.statusCode,
          loaderData: result.loaderData[page] ?? null,
          ...(layout ? { layoutData: result.loaderData[layout.route.id] ?? null } : {}),
          actionData: result.actionData ? (result.actionData[page] ?? null) : null,
          errors,
        },
        { status: result.statusCode },
      );
    },
  });
  return { app, accounts, config };
}

/** What `data(value, { status })` throws (React Router's DataWithResponseInit). */
function isDataWithResponseInit(
  value: unknown,
): value is { data: unknown; init: { status?: number } | null } {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as { type?: unknown }).type === "DataWithResponseInit"
  );
}

/** A verified user with a completed profile, signed in on a new browser of `app`. */
export async function signedInMember(
  database: TestDatabase,
  env: ReturnType<typeof createRouteApp>,
  name = "member",
  /** A browser that signs up and in (a guest on the way to a booking); a new one by default. */
  b = browser(env.app),
) {
  const email = uniqueEmail(name);
  b.keep(
    await signUpWithPassword(env.accounts, { email, password: "secret1" }, b.toRequest("/signup")),
  );
  await b.request(await lastMailLink(database.db, email));
  const user = await requireLogin(b.toRequest("/"), { db: database.db, accounts: env.accounts });
  await saveProfile(database.db, user.id, {
    name: "山田 花子",
    nameKana: "ヤマダ ハナコ",
    phone: "09012345678",
    gender: "female",
    birthDate: null,
  });
  return { b, userId: user.id, email };
}

/** A urlencoded POST body, as a browser sends a form. */
export function postForm(fields: Record<string, string | string[]>) {
  const body = new URLSearchParams();
  for (const [key, value] of Object.entries(fields)) {
    for (const item of Array.isArray(value) ? value : [value]) body.append(key, item);
  }
  return {
    method: "POST",
    body,
    headers: { "content-type": "application/x-www-form-urlencoded" },
  };
}
