import type { Context, MiddlewareHandler } from "hono";
import {
  data,
  isRouteErrorResponse,
  type RouterContextProvider,
  type ServerBuild,
} from "react-router";
import { appContext } from "../context";
import { isDatabaseUnavailable } from "../db/unavailable";
import {
  DatabaseUnavailableError,
  DomainError,
  errorBody,
  NotFoundError,
  UnauthenticatedError,
} from "../errors/domain-error";
import { describeError, type Logger } from "../logger";

/**
 * The one place where what domain code throws becomes an answer. Domain
 * functions throw DomainError; guards and notFound() throw React Router's
 * redirect or data() (they serve loaders first). For /api those become the
 * JSON error of SPEC.md §7, for pages the error screen with the status and
 * the Japanese message. A database out of reach (a failover, a restart),
 * however wrapped, is a 503 with Retry-After. Anything else is a fault:
 * logged and answered 500.
 */
export function toDomainError(thrown: unknown): DomainError | undefined {
  if (thrown instanceof DomainError) return thrown;
  if (isDatabaseUnavailable(thrown)) return new DatabaseUnavailableError();
  if (thrown instanceof Response && thrown.status >= 300 && thrown.status < 400) {
    // A guard sending the visitor somewhere: an API caller cannot follow it.
    const location = thrown.headers.get("location") ?? "";
    if (location.startsWith("/signin")) return new UnauthenticatedError();
    return new DomainError("forbidden", "この操作を行うことはできません。", 403);
  }
  const init = dataInit(thrown);
  if (init && init.status >= 400 && init.status < 500) {
    if (init.status === 404) return new NotFoundError();
    return new DomainError("bad_request", messageOf(init.data), init.status);
  }
  return undefined;
}

function dataInit(thrown: unknown): { status: number; data: unknown } | undefined {
  if (isRouteErrorResponse(thrown)) return { status: thrown.status, data: thrown.data };
  if (
    typeof thrown === "object" &&
    thrown !== null &&
    (thrown as { type?: unknown }).type === "DataWithResponseInit"
  ) {
    // data(...) from react-router, recognised by its tag.
    const value = thrown as { data: unknown; init?: { status?: number } | null };
    return { status: value.init?.status ?? 200, data: value.data };
  }
  return undefined;
}

function messageOf(value: unknown) {
  if (
    typeof value === "object" &&
    value &&
    typeof (value as { message?: unknown }).message === "string"
  ) {
    return (value as { message: string }).message;
  }
  return "リクエストの内容が正しくありません。";
}

export const isApiPath = (path: string) => path === "/api" || path.startsWith("/api/");

/** A DomainError as a response: JSON under /api, a short Japanese text elsewhere. */
export function domainErrorResponse(c: Context, error: DomainError): Response {
  c.header("Cache-Control", "private, no-store");
  // A rate limit says when to come back (seconds), in the header clients know.
  const retryAfter = error.details?.retryAfter;
  if (typeof retryAfter === "number") c.header("Retry-After", String(retryAfter));
  if (isApiPath(c.req.path)) {
    return c.json(errorBody(error), error.status as 400);
  }
  return c.text(error.message, error.status as 400);
}

/** A lost database is answered, not a fault, but the operator should see why: one warning. */
export function noteUnavailable(c: Context, domain: DomainError, thrown: unknown, log: Logger) {
  if (!(domain instanceof DatabaseUnavailableError)) return;
  log.warn("database unavailable", {
    requestId: c.get("requestId"),
    path: c.req.path,
    ...describeError(thrown),
  });
}

/**
 * Hono hands only Error instances to onError; a guard's redirect or
 * notFound() thrown in a Hono handler would escape it as a bare 500. This
 * catches those (first in the chain) and answers them as DomainErrors.
 */
export function thrownAnswers(log: Logger): MiddlewareHandler {
  return async (c, next) => {
    try {
      await next();
    } catch (thrown) {
      const domain = toDomainError(thrown);
      if (!domain) throw thrown;
      noteUnavailable(c, domain, thrown, log);
      c.res = domainErrorResponse(c, domain);
    }
  };
}

/** What a page's ErrorBoundary receives for a DomainError: data({ code, message }) with its status. */
export function domainErrorData(error: DomainError) {
  return data({ code: error.code, message: error.message }, { status: error.status });
}

type RouteFunction = (...args: never[]) => unknown;

function convertThrown<F extends RouteFunction>(fn: F): F {
  return (async (...args: Parameters<F>) => {
    try {
      return await fn(...args);
    } catch (thrown) {
      if (thrown instanceof DomainError) throw domainErrorData(thrown);
      if (isDatabaseUnavailable(thrown)) {
        logUnavailable(args[0], thrown);
        throw domainErrorData(new DatabaseUnavailableError());
      }
      throw thrown;
    }
  }) as unknown as F;
}

/** A route's lost database, logged as a warning (the answer is a 503, not a fault). */
function logUnavailable(routeArgs: unknown, thrown: unknown) {
  const context = (routeArgs as { context?: RouterContextProvider } | undefined)?.context;
  try {
    const { log, requestId } = (context as RouterContextProvider).get(appContext);
    log.warn("database unavailable", { requestId, ...describeError(thrown) });
  } catch {
    // No app context (a route run outside the app): the 503 is answer enough.
  }
}

const wrapped = new WeakMap<ServerBuild, ServerBuild>();

/**
 * The React Router side: every loader, action and middleware of the build
 * turns a thrown DomainError into data(...) with its status, so the error
 * screen shows the status and message (React Router would make any other
 * error a 500 and hide its message).
 */
export function withDomainErrors(build: ServerBuild): ServerBuild {
  const known = wrapped.get(build);
  if (known) return known;
  const routes = Object.fromEntries(
    Object.entries(build.routes).map(([id, route]) => {
      if (!route) return [id, route];
      const module = { ...route.module };
      if (module.loader) module.loader = convertThrown(module.loader);
      if (module.action) module.action = convertThrown(module.action);
      if (module.middleware) module.middleware = module.middleware.map(convertThrown);
      return [id, { ...route, module }];
    }),
  );
  const result = { ...build, routes } as ServerBuild;
  wrapped.set(build, result);
  return result;
}
