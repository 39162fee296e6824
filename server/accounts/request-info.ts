import { CLIENT_IP_HEADER } from "./auth";

/**
 * The client address the HTTP layer wrote into the request (it replaces any
 * value the client sent), for rate limits keyed by IP.
 */
export function clientIp(request: Request) {
  return request.headers.get(CLIENT_IP_HEADER) ?? "unknown";
}

/** The path plus query of a request, for `?redirect=` after sign-in. */
export function pathOf(request: Request) {
  const url = new URL(request.url);
  return `${url.pathname}${url.search}`;
}

/**
 * A redirect target from a query string, accepted only when it is a path
 * on this site (an open redirect would let a phishing link borrow our domain).
 */
export function safeRedirect(target: string | null | undefined, fallback = "/") {
  if (!target?.startsWith("/") || target.startsWith("//") || target.includes("\\")) {
    return fallback;
  }
  return target;
}
