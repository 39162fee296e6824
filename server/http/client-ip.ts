import type { MiddlewareHandler } from "hono";
import { CLIENT_IP_HEADER } from "../accounts/auth";

type NodeEnv = { incoming?: { socket?: { remoteAddress?: string } } };

/**
 * Writes the client's address into one request header that rate limiting
 * reads (ours and Better Auth's), replacing whatever the client sent. Behind
 * a proxy (TRUST_PROXY) it is the first X-Forwarded-For entry, else the
 * socket's peer.
 */
export function clientIpHeader(trustProxy: boolean): MiddlewareHandler {
  return async (c, next) => {
    const forwarded = trustProxy
      ? c.req.header("x-forwarded-for")?.split(",")[0]?.trim()
      : undefined;
    const peer = (c.env as NodeEnv | undefined)?.incoming?.socket?.remoteAddress;
    c.req.raw.headers.set(CLIENT_IP_HEADER, forwarded || peer || "unknown");
    await next();
  };
}
