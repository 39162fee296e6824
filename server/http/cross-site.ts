import type { MiddlewareHandler } from "hono";

// Only POST (and GET) can be sent by another site's form or a no-cors fetch;
// PUT, PATCH and DELETE always need a CORS preflight, which we never grant,
// so API clients may send them without a body or an Origin.
const SAFE_METHOD = /^(GET|HEAD|OPTIONS|PUT|PATCH|DELETE)$/;
// The content types a page on another site can post without a CORS preflight.
const FORM_TYPE = /^\b(application\/x-www-form-urlencoded|multipart\/form-data|text\/plain)\b/i;

/**
 * Rejects form posts from other sites (CSRF) for React Router actions and
 * /api/auth alike: the browser's Origin (or Sec-Fetch-Site) must name this
 * site. JSON requests need a CORS preflight, which we never grant.
 */
export function rejectCrossSiteForms(publicOrigin: string): MiddlewareHandler {
  return async (c, next) => {
    if (SAFE_METHOD.test(c.req.method)) return next();
    if (!FORM_TYPE.test(c.req.header("content-type") ?? "text/plain")) return next();
    const origin = c.req.header("origin");
    const sameSite = c.req.header("sec-fetch-site") === "same-origin";
    if (sameSite || origin === publicOrigin || origin === new URL(c.req.url).origin) return next();
    return c.text(
      "別のサイトから送信されたため、受け付けませんでした。このサイトの画面からもう一度操作してください。",
      403,
    );
  };
}
