import type { MiddlewareHandler } from "hono";
import { authErrorMessage } from "../../common/auth-errors";
import type { AccountServices } from "../accounts/account-services";
import { trustedDevice } from "../accounts/device-cookie";
import { authEndpointLimits, consumeAttempt } from "../accounts/rate-limit";
import { clientIp, safeRedirectPath } from "../accounts/request-info";

/** Parameters Better Auth redirects to after a mail link or external sign-in. */
const REDIRECT_PARAMS = ["callbackURL", "newUserCallbackURL", "errorCallbackURL", "redirectTo"];

/** The JSON or form body of a request, read from a copy so Better Auth still gets it. */
async function bodyOf(request: Request): Promise<Record<string, unknown>> {
  const type = request.headers.get("content-type") ?? "";
  try {
    if (type.includes("application/json")) {
      const body: unknown = await request.clone().json();
      return body && typeof body === "object" && !Array.isArray(body)
        ? (body as Record<string, unknown>)
        : {};
    }
    if (type.includes("form")) {
      return Object.fromEntries(await request.clone().formData());
    }
  } catch {
    // A body that does not parse is Better Auth's to refuse; it still counts per IP below.
  }
  return {};
}

function apiError(code: string, message: string) {
  return { error: { code, message } };
}

/**
 * In front of Better Auth's handler: the same per-IP and per-account limits
 * as the form actions (one consumeAttempt, same keys), and redirect targets
 * that must stay on this site. Better Auth's own limiter only counts per IP,
 * so without this a password guessed from many addresses, or mails asked for
 * one address through the API, were never throttled.
 */
export function authEndpointGuard(accounts: AccountServices): MiddlewareHandler {
  return async (c, next) => {
    const request = c.req.raw;
    const url = new URL(request.url);
    const body = request.method === "POST" ? await bodyOf(request) : {};

    for (const name of REDIRECT_PARAMS) {
      const value = url.searchParams.get(name) ?? body[name];
      if (value === null || value === undefined || value === "") continue;
      if (safeRedirectPath(value, "") === "") {
        return c.json(
          apiError("INVALID_CALLBACK_URL", "移動先にはこのサイト内のページを指定してください。"),
          400,
        );
      }
    }

    const endpoint = url.pathname.slice("/api/auth".length);
    const limit = request.method === "POST" ? authEndpointLimits[endpoint] : undefined;
    if (!limit) return next();
    for (const rule of Array.isArray(limit) ? limit : [limit]) {
      let email: string | undefined;
      if (rule.account === "session") {
        const session = await accounts.auth.api
          .getSession({ headers: request.headers })
          .catch(() => null);
        email = session?.user.email;
      } else {
        const value = body[rule.account];
        email = typeof value === "string" && value.trim() !== "" ? value : undefined;
      }
      const result = await consumeAttempt(accounts.limits, rule.action, {
        ip: clientIp(request),
        email,
        device: email ? trustedDevice(request.headers, accounts.deviceSecret, email) : null,
      });
      if (!result.allowed) {
        if (result.retryAfter) c.header("Retry-After", String(result.retryAfter));
        return c.json(apiError("TOO_MANY_REQUESTS", authErrorMessage("too-many-requests")), 429);
      }
    }
    return next();
  };
}
