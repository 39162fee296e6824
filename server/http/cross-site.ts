import type { Context, MiddlewareHandler } from "hono";
import { DomainError } from "../errors/domain-error";
import { domainErrorResponse } from "./errors";

// Methods that change nothing: never checked.
const SAFE_METHOD = /^(GET|HEAD|OPTIONS)$/;
// The content types a page on another site can post without a CORS preflight.
const FORM_TYPE = /^\b(application\/x-www-form-urlencoded|multipart\/form-data|text\/plain)\b/i;

const MESSAGE =
  "別のサイトから送信されたため、受け付けませんでした。このサイトの画面からもう一度操作してください。";

/**
 * The one rule that a request came from this site's own pages: the
 * browser's Origin names the site (its public origin, or the origin it was
 * asked at), or Sec-Fetch-Site says same-origin. Browsers send one or both
 * on every POST, PUT, PATCH and DELETE, our pages' fetches included.
 */
function sentBySite(c: Context, publicOrigin: string): boolean {
  if (c.req.header("sec-fetch-site") === "same-origin") return true;
  const origin = c.req.header("origin");
  return origin === publicOrigin || origin === new URL(c.req.url).origin;
}

/**
 * Refuses writes another site could make a browser send (CSRF), for React
 * Router actions, /api/auth and /api alike, with one rule (`sentBySite`):
 *
 * - form posts (the content types a cross-site form or a no-cors fetch can
 *   send), whoever sends them: no Origin is no proof;
 * - any other write (JSON, any method) that carries cookies and no bearer
 *   token: it is authenticated by what the browser attaches on its own
 *   (the session, a guest's hold), so it must show the site sent it.
 *   Browsers cannot send such requests cross-site today (SameSite=Lax
 *   cookies, no CORS granted): this is defence in depth (issue 38 §4.7).
 *
 * API clients with a bearer token and no cookies are not affected, nor GET,
 * HEAD and OPTIONS. The refusal is 403 in the answer's usual shape: the
 * JSON error under /api, a short text for pages.
 */
export function rejectCrossSiteWrites(publicOrigin: string): MiddlewareHandler {
  return async (c, next) => {
    const method = c.req.method;
    if (SAFE_METHOD.test(method)) return next();
    const form = method === "POST" && FORM_TYPE.test(c.req.header("content-type") ?? "text/plain");
    const bearer = /^bearer\s/i.test(c.req.header("authorization") ?? "");
    const ambient = Boolean(c.req.header("cookie")) && !bearer;
    if (!form && !ambient) return next();
    if (sentBySite(c, publicOrigin)) return next();
    return domainErrorResponse(c, new DomainError("cross_site", MESSAGE, 403));
  };
}
