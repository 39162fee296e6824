import { BlockList, isIP } from "node:net";
import type { MiddlewareHandler } from "hono";
import { CLIENT_IP_HEADER } from "../accounts/auth";
import type { ProxyHeaders, ProxyTrust } from "../config";

type NodeEnv = { incoming?: { socket?: { remoteAddress?: string } } };

/** What one proxy said about the request it passed on: its client, and how it was asked. */
type Hop = { for?: string; proto?: string; host?: string };

/** The request as the visitor made it: the URL they asked for and their address. */
export type Visitor = { url: string; clientAddress: string };

/**
 * Decision 0069: the one place that works out the request as the visitor
 * made it — the scheme and host they asked for and their address — from
 * the socket and, only when TRUST_PROXY trusts the proxy that connected,
 * from the forwarded headers (`X-Forwarded-For/-Proto/-Host`, or RFC 7239
 * `Forwarded` with PROXY_HEADERS=forwarded). Everything after it (React
 * Router's action origin check, Better Auth, the cross-site check, rate
 * limits, redirects) reads the same answer, so none can disagree with
 * another about whether the visitor came over https.
 *
 * Proxies add to the right of the list, so the entry as many hops from the
 * right as there are proxies of ours is what our outermost proxy saw; the
 * entries further left are the client's to invent. With a hop count, that
 * many are trusted whoever connected (the app must be reachable only
 * through them); with addresses, the peer must be one of them, and each
 * entry from the right that is one too is another hop.
 */
export function visitorOf(
  requestUrl: string,
  headers: Headers,
  peer: string | undefined,
  trust: ProxyTrust,
  family: ProxyHeaders,
): Visitor {
  const lists = family === "forwarded" ? forwardedLists(headers) : xForwardedLists(headers);
  const hops = trustedHops(peer, lists.for, trust);
  // What our outermost trusted proxy saw; with fewer entries than hops, the first one written.
  const told = (list: (string | undefined)[]) =>
    hops > 0 ? list[Math.max(0, list.length - hops)] : undefined;
  const url = new URL(requestUrl);
  const proto = told(lists.proto)?.toLowerCase();
  if (proto === "http" || proto === "https") url.protocol = `${proto}:`;
  const host = told(lists.host);
  if (host && HOST.test(host)) {
    url.host = host;
    // A host without a port is asked at the scheme's own port, not the app's.
    if (!/:\d+$/.test(host)) url.port = "";
  }
  const client = told(lists.for);
  return {
    url: url.toString(),
    clientAddress: (client && withoutPort(client)) || peer || "unknown",
  };
}

// A host name or address with an optional port: nothing that could carry a path or credentials.
const HOST = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(:\d{1,5})?$/i;

type Lists = {
  for: (string | undefined)[];
  proto: (string | undefined)[];
  host: (string | undefined)[];
};

/** How many proxies, counted from the peer, the app believes. */
function trustedHops(peer: string | undefined, chain: (string | undefined)[], trust: ProxyTrust) {
  if ("hops" in trust) return trust.hops;
  const proxies = addressList(trust.proxies);
  if (!isListed(proxies, peer)) return 0;
  let hops = 1;
  // Each address our proxies appended that is one of them too is one more hop; the first that is not is the client.
  for (let i = chain.length - 1; i > 0 && isListed(proxies, withoutPort(chain[i] ?? "")); i -= 1) {
    hops += 1;
  }
  return hops;
}

/**
 * X-Forwarded-For, -Proto and -Host, each its own comma-separated list:
 * X-Forwarded-Proto and -Host are most often one value the proxy set, and
 * then that value is the one taken.
 */
function xForwardedLists(headers: Headers): Lists {
  const list = (name: string) =>
    (headers.get(name) ?? "")
      .split(",")
      .map((entry) => entry.trim())
      .filter(Boolean);
  return {
    for: list("x-forwarded-for"),
    proto: list("x-forwarded-proto"),
    host: list("x-forwarded-host"),
  };
}

/** `Forwarded`'s elements, one per proxy: a field comes only from the element of the hop taken. */
function forwardedLists(headers: Headers): Lists {
  const hops = forwardedHops(headers.get("forwarded") ?? "");
  return {
    for: hops.map((hop) => hop.for),
    proto: hops.map((hop) => hop.proto),
    host: hops.map((hop) => hop.host),
  };
}

/**
 * RFC 7239 `Forwarded`: elements separated by commas, pairs by semicolons,
 * values a token or a quoted string (`for="[2001:db8::1]:4711"`).
 */
export function forwardedHops(value: string): Hop[] {
  const hops: Hop[] = [];
  for (const element of splitOutsideQuotes(value, ",")) {
    const hop: Hop = {};
    for (const pair of splitOutsideQuotes(element, ";")) {
      const index = pair.indexOf("=");
      if (index < 0) continue;
      const name = pair.slice(0, index).trim().toLowerCase();
      let text = pair.slice(index + 1).trim();
      if (text.startsWith('"') && text.endsWith('"') && text.length >= 2) {
        text = text.slice(1, -1).replace(/\\(.)/g, "$1");
      }
      if (name === "for" || name === "proto" || name === "host") hop[name] = text;
    }
    hops.push(hop);
  }
  return hops;
}

function splitOutsideQuotes(text: string, separator: string): string[] {
  const parts: string[] = [];
  let current = "";
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i];
    if (char === '"') quoted = !quoted;
    if (char === "\\" && quoted) {
      current += char + (text[i + 1] ?? "");
      i += 1;
      continue;
    }
    if (char === separator && !quoted) {
      if (current.trim()) parts.push(current.trim());
      current = "";
    } else current += char;
  }
  if (current.trim()) parts.push(current.trim());
  return parts;
}

/** `192.0.2.1:4711` → `192.0.2.1`, `[2001:db8::1]:4711` → `2001:db8::1`; anything else as it is. */
function withoutPort(address: string): string {
  const bracketed = /^\[([^\]]+)\](:\d+)?$/.exec(address);
  if (bracketed?.[1]) return bracketed[1];
  const v4 = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(address);
  return v4?.[1] ?? address;
}

const addressLists = new WeakMap<readonly string[], BlockList>();

/** TRUST_PROXY's addresses and CIDR ranges as a BlockList (made once per list). */
function addressList(entries: readonly string[]): BlockList {
  let list = addressLists.get(entries);
  if (list) return list;
  list = new BlockList();
  for (const entry of entries) {
    const [address = "", prefix] = entry.split("/");
    const type = isIP(address) === 6 ? "ipv6" : "ipv4";
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(prefix), type);
  }
  addressLists.set(entries, list);
  return list;
}

function isListed(list: BlockList, address: string | undefined): boolean {
  const version = address ? isIP(address) : 0;
  if (!address || version === 0) return false;
  return list.check(address, version === 6 ? "ipv6" : "ipv4");
}

/**
 * First after the request id: the request every later step and React
 * Router see is the visitor's (`visitorOf`), and the one header rate limits
 * read (ours and Better Auth's) holds their address, replacing whatever the
 * client sent.
 */
export function visitorRequest(trust: ProxyTrust, family: ProxyHeaders): MiddlewareHandler {
  return async (c, next) => {
    const peer = (c.env as NodeEnv | undefined)?.incoming?.socket?.remoteAddress;
    const old = c.req.raw;
    const visitor = visitorOf(old.url, old.headers, peer, trust, family);
    old.headers.set(CLIENT_IP_HEADER, visitor.clientAddress);
    if (visitor.url !== old.url) {
      // Nothing has read the body yet: the new request carries the same stream.
      const body = old.method === "GET" || old.method === "HEAD" ? undefined : old.body;
      c.req.raw = new Request(visitor.url, {
        method: old.method,
        headers: old.headers,
        body,
        signal: old.signal,
        ...(body ? { duplex: "half" } : {}),
      } as RequestInit);
    }
    await next();
  };
}
