import type { MiddlewareHandler } from "hono";
import { PAGE_CACHE_HEADER } from "../../common/page-cache";
import {
  type InvalidationListener,
  listenForInvalidation,
  PUBLIC_PAGES_CHANNEL,
} from "../cache/invalidation";
import type { DatabaseHandle } from "../db/client";

/**
 * A micro-cache for public pages (docs/decisions/0007-page-micro-cache.md).
 *
 * A route opts in by answering with `PAGE_CACHE_HEADER: <seconds>` (see
 * common/page-cache.ts). For that long, the same URL asked by any
 * anonymous visitor is answered from memory, and concurrent misses for one
 * URL wait for a single render instead of each querying the database. So a
 * burst on a popular search costs one query per few seconds. Once a copy
 * expires, the next request renders a new one while the others are still
 * answered from the old copy (for as long again), so no burst waits on it.
 *
 * Only anonymous GET requests take part: any cookie other than the display
 * preferences (which are part of the key) or analytics, or an Authorization
 * header, bypasses the cache, so nothing personal is ever stored or shared.
 * Each answer gets the current request's CSP nonce written in place of the
 * one it was rendered with, so a nonce is never reused across responses.
 *
 * An admin change of a salon NOTIFYs PUBLIC_PAGES_CHANNEL in its
 * transaction; every app server's cache LISTENs (`events`) and drops every
 * page on it, so a suspended salon is gone from its page and from search
 * as soon as the change commits, not 10 to 20 seconds later.
 */
export { PAGE_CACHE_HEADER };

/** Cookies that change how a public page renders; they are part of the key. */
const KEY_COOKIES = ["theme", "viewport"];
/** Set by Google Tag Manager's scripts for analytics; the server never reads them. */
const ANALYTICS_COOKIE = /^(_ga(_.*)?|_gid|_gcl_.*)$/;
/**
 * Read only when signing in (server/accounts/device-cookie.ts), never by a
 * page: a signed-out member's browser keeps it for a year and still shares
 * the anonymous copies.
 */
const SIGN_IN_ONLY_COOKIES = ["device"];
const CACHEABLE_TYPE = /^text\/(html|x-script)/;
const MAX_TTL_SECONDS = 300;

export type PageCacheOptions = {
  /** Most pages held at once; 0 turns the cache off. */
  maxEntries: number;
  /** Upper bound on the bytes of all held pages. */
  maxBytes?: number;
  now?: () => number;
  /** The database handle to LISTEN on for PUBLIC_PAGES_CHANNEL (every app server's edits). */
  events?: Pick<DatabaseHandle, "listen">;
};

export type PageCache = MiddlewareHandler<Env> &
  InvalidationListener & {
    /** Drops every page, and keeps renders already under way from storing theirs. */
    purge(): void;
  };

type Entry = {
  status: number;
  headers: [string, string][];
  /**
   * The body split at the nonce it was rendered with, as UTF-8 bytes:
   * @hono/node-server writes bytes as they are, where a string would be
   * measured and encoded again on every answer.
   */
  parts: Buffer[];
  bytes: number;
  expiresAt: number;
  /** Until then, an expired copy may answer while one request renders a new one. */
  staleUntil: number;
};

type Env = { Variables: { secureHeadersNonce?: string } };

export function pageCache({
  maxEntries,
  maxBytes = 64 * 1024 * 1024,
  now = Date.now,
  events,
}: PageCacheOptions): PageCache {
  const entries = new Map<string, Entry>();
  const inFlight = new Map<string, Promise<Entry | null>>();
  let heldBytes = 0;
  /** Bumped by purge(): a render that began before it may hold what the change replaced. */
  let generation = 0;

  function purge() {
    entries.clear();
    heldBytes = 0;
    // Requests after the purge must not wait for (and be answered by) a render begun before it.
    inFlight.clear();
    generation++;
  }

  function remove(key: string) {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    heldBytes -= entry.bytes;
  }

  function store(key: string, entry: Entry) {
    remove(key);
    entries.set(key, entry);
    heldBytes += entry.bytes;
    // A Map iterates in insertion order, and hits re-insert: the first key is the least recent.
    for (const oldest of entries.keys()) {
      if (entries.size <= maxEntries && heldBytes <= maxBytes) break;
      remove(oldest);
    }
  }

  /** The entry of a key, marked most recently used; past its stale time it is dropped. */
  function lookup(key: string) {
    const entry = entries.get(key);
    if (!entry) return undefined;
    if (entry.staleUntil <= now()) {
      remove(key);
      return undefined;
    }
    entries.delete(key);
    entries.set(key, entry);
    return entry;
  }

  const middleware: MiddlewareHandler<Env> = async (c, next) => {
    const key = maxEntries > 0 && c.req.method === "GET" ? cacheKey(c.req.raw) : null;
    if (!key) {
      await next();
      c.res.headers.delete(PAGE_CACHE_HEADER);
      return;
    }
    const nonce = c.get("secureHeadersNonce") ?? "";
    // Looked up before any await, so a burst finds the first request's render.
    const entry = lookup(key);
    const pending = inFlight.get(key);
    if (entry && entry.expiresAt > now()) {
      c.res = respond(entry, nonce, "HIT");
      return;
    }
    if (pending) {
      // Someone is already rendering this page: an expired copy (within its
      // stale time) is served at once rather than waiting; else wait.
      const served = entry ?? (await pending);
      if (served) {
        c.res = respond(served, nonce, entry ? "STALE" : "HIT");
        return;
      }
    }

    const render = (async () => {
      const startedIn = generation;
      await next();
      const entry = await toEntry(c.res, nonce, now());
      if (entry && startedIn === generation) store(key, entry);
      return entry;
    })();
    inFlight.set(key, render);
    try {
      const entry = await render;
      // Hono copies the replaced response's headers onto the new one: drop ours first.
      c.res.headers.delete(PAGE_CACHE_HEADER);
      if (entry) c.res = respond(entry, nonce, "MISS");
    } finally {
      if (inFlight.get(key) === render) inFlight.delete(key);
    }
  };
  const listener = listenForInvalidation(
    maxEntries > 0 ? events : undefined,
    PUBLIC_PAGES_CHANNEL,
    purge,
    "pages changed by admins stay cached until they expire",
  );
  return Object.assign(middleware, { purge, ready: listener.ready, close: listener.close });
}

/** The key for an anonymous request, or null when the request may see personal content. */
export function cacheKey(request: Request): string | null {
  if (request.headers.has("authorization")) return null;
  const preferences: string[] = [];
  for (const pair of (request.headers.get("cookie") ?? "").split(";")) {
    const separator = pair.indexOf("=");
    const name = (separator < 0 ? pair : pair.slice(0, separator)).trim();
    if (!name || ANALYTICS_COOKIE.test(name) || SIGN_IN_ONLY_COOKIES.includes(name)) continue;
    if (!KEY_COOKIES.includes(name)) return null;
    preferences.push(`${name}=${pair.slice(separator + 1).trim()}`);
  }
  return `${request.url} ${preferences.sort().join(";")}`;
}

async function toEntry(response: Response, nonce: string, now: number): Promise<Entry | null> {
  const ttl = Number(response.headers.get(PAGE_CACHE_HEADER));
  if (
    response.status !== 200 ||
    !(ttl > 0) ||
    response.headers.has("set-cookie") ||
    !CACHEABLE_TYPE.test(response.headers.get("content-type") ?? "")
  ) {
    return null;
  }
  const seconds = Math.min(ttl, MAX_TTL_SECONDS);
  // Split as bytes: decoding the page to a string and encoding its parts again cost a
  // miss ~0.5 ms for a 140 KB search page (bench/README.md, issue 42). The nonce is ASCII.
  const body = Buffer.from(await response.arrayBuffer());
  const parts = nonce ? splitBytes(body, Buffer.from(nonce)) : [body];
  const headers: [string, string][] = [];
  response.headers.forEach((value, name) => {
    if (name !== PAGE_CACHE_HEADER && name !== "content-length") headers.push([name, value]);
  });
  return {
    status: response.status,
    headers,
    parts,
    bytes: parts.reduce((sum, part) => sum + part.byteLength, 0),
    expiresAt: now + seconds * 1000,
    staleUntil: now + 2 * seconds * 1000,
  };
}

/** `bytes` cut at each `separator` (views of it, not copies), like String.split. */
function splitBytes(bytes: Buffer, separator: Buffer): Buffer[] {
  const parts: Buffer[] = [];
  let start = 0;
  for (let at = bytes.indexOf(separator); at >= 0; at = bytes.indexOf(separator, start)) {
    parts.push(bytes.subarray(start, at));
    start = at + separator.byteLength;
  }
  parts.push(bytes.subarray(start));
  return parts;
}

function respond(entry: Entry, nonce: string, state: "HIT" | "STALE" | "MISS") {
  const nonceBytes = Buffer.from(nonce);
  const chunks = entry.parts.flatMap((part, index) => (index === 0 ? [part] : [nonceBytes, part]));
  const response = new Response(Buffer.concat(chunks), {
    status: entry.status,
    headers: entry.headers,
  });
  response.headers.set("x-cache", state);
  return response;
}
