import type { MiddlewareHandler } from "hono";
import { CLIENT_IP_HEADER } from "../accounts/auth";

type NodeEnv = { incoming?: { socket?: { remoteAddress?: string } } };

/**
 * The client's address given the socket's peer and X-Forwarded-For, behind
 * `trustedHops` proxies of our own. Each proxy appends the address it saw,
 * so the entry `trustedHops` from the right is the one our outermost proxy
 * received the request from; entries further left are the client's to
 * invent, and taking them would let anyone pick the key their attempts are
 * counted under. With fewer entries than hops the leftmost one is used.
 */
export function clientAddress(
  peer: string | undefined,
  forwardedFor: string | undefined,
  trustedHops: number,
): string {
  if (trustedHops > 0 && forwardedFor) {
    const entries = forwardedFor
      .split(",")
      .map((entry) => entry.trim())
      .filter(Boolean);
    const chosen = entries[Math.max(0, entries.length - trustedHops)];
    if (chosen) return chosen;
  }
  return peer || "unknown";
}

/**
 * Writes the client's address into one request header that rate limiting
 * reads (ours and Better Auth's), replacing whatever the client sent.
 */
export function clientIpHeader(trustedHops: number): MiddlewareHandler {
  return async (c, next) => {
    const peer = (c.env as NodeEnv | undefined)?.incoming?.socket?.remoteAddress;
    c.req.raw.headers.set(
      CLIENT_IP_HEADER,
      clientAddress(peer, c.req.header("x-forwarded-for"), trustedHops),
    );
    await next();
  };
}
