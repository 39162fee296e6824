import { CLIENT_IP_HEADER } from "./auth";

/**
 * The client address the HTTP layer wrote into the request (it replaces any
 * value the client sent), for rate limits keyed by IP.
 */
export function clientIp(request: Request) {
  return request.headers.get(CLIENT_IP_HEADER) ?? "unknown";
}

/**
 * The page a request is for, as path plus query, for `?redirect=` after
 * sign-in. A client navigation fetches `<page>.data` (React Router's single
 * fetch, `/_.data` for the home page) with a `_routes` parameter; the
 * guest must come back to the page, not to that data URL.
 */
export function pathOf(request: Request) {
  const url = new URL(request.url);
  let pathname = url.pathname;
  if (pathname.endsWith(".data")) {
    // A path ending in a slash (the home page) is `/_.data` in React Router 8,
    // as its server reads it; `/_root.data` before.
    if (pathname === "/_root.data") pathname = "/";
    else if (pathname.endsWith("/_.data")) pathname = pathname.slice(0, -"_.data".length);
    else pathname = pathname.slice(0, -".data".length);
    url.searchParams.delete("_routes");
  }
  return `${pathname}${url.search}`;
}

const BASE = "http://same-origin.invalid";
// C0 controls, DEL and the backslash browsers read as a slash.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const UNSAFE = /[\u0000-\u001f\u007f\\]/;
const OTHER_HOST = /^\/[/\\]/;

/**
 * A redirect target from a query string, form field or callback parameter,
 * accepted only when it is a path on this site (an open redirect would let a
 * phishing link borrow our domain). Browsers strip tabs and newlines and read
 * `\` as `/`, so `/%09/evil`, `/\evil` and `/%5Cevil` are refused as well as
 * `//evil` and absolute URLs, checked as sent, percent-decoded and as
 * normalised (dot segments resolved).
 */
export function safeRedirectPath(value: unknown, fallback = "/"): string {
  if (typeof value !== "string" || value.length === 0 || value.length > 2000) return fallback;
  if (!value.startsWith("/") || value.startsWith("//") || UNSAFE.test(value)) return fallback;
  let decoded: string;
  try {
    decoded = decodeURIComponent(value.split(/[?#]/)[0] ?? "");
  } catch {
    return fallback;
  }
  if (UNSAFE.test(decoded) || leavesSite(decoded)) return fallback;
  const url = new URL(value, BASE);
  if (url.origin !== BASE) return fallback;
  const path = `${url.pathname}${url.search}${url.hash}`;
  // The URL parser resolves dot segments: `/.//evil` and `/..//evil` come
  // out as `//evil`, which a browser reads as another host. What we return
  // is what we redirect to, so it is checked again.
  if (leavesSite(path)) return fallback;
  return path;
}

/** `//host` (or `/\host`) as it is, or once its dot segments are resolved. */
function leavesSite(path: string) {
  return OTHER_HOST.test(path) || OTHER_HOST.test(new URL(path, BASE).pathname);
}
