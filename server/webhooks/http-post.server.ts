import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { hostOf, resolveAllowed } from "./address-guard.server";

/** What a receiver's answer came to. */
export type PostOutcome =
  | { kind: "answered"; status: number; retryAfterMs: number | null }
  /** No answer: refused address, connection error, timeout. */
  | { kind: "failed"; error: string };

/** How much of the receiver's answer is read (and thrown away) before the socket is closed. */
const MAX_RESPONSE_BYTES = 64 * 1024;
/** A Retry-After longer than this is taken as this. */
const MAX_RETRY_AFTER_MS = 24 * 3_600_000;

/** `Retry-After`: seconds or an HTTP date, as milliseconds from `now`; null when absent or bad. */
export function parseRetryAfter(value: string | undefined, now: Date): number | null {
  if (!value) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Math.min(MAX_RETRY_AFTER_MS, Number(text) * 1000);
  const at = Date.parse(text);
  if (Number.isNaN(at)) return null;
  return Math.min(MAX_RETRY_AFTER_MS, Math.max(0, at - now.getTime()));
}

/**
 * One POST of a webhook (decision 0086): the host resolved and checked first
 * (every address), the connection made to the checked address, no redirect
 * followed (a 3xx is an answer like any other), the whole exchange bounded by
 * `timeoutMs`, and at most 64 KB of the answer read.
 */
export async function postWebhook(
  url: URL,
  headers: Record<string, string>,
  body: string,
  options: { allowLoopback: boolean; timeoutMs: number; now: Date },
): Promise<PostOutcome> {
  let pinned: { address: string; family: 4 | 6 };
  try {
    // The lookup counts against the same timeout: a resolver that never answers is no answer.
    let lookupTimer: NodeJS.Timeout | undefined;
    pinned = await Promise.race([
      resolveAllowed(hostOf(url), options.allowLoopback),
      new Promise<never>((_, reject) => {
        lookupTimer = setTimeout(() => reject(new Error("lookup timed out")), options.timeoutMs);
      }),
    ]).finally(() => clearTimeout(lookupTimer));
  } catch (error) {
    return {
      kind: "failed",
      error:
        error instanceof Error && error.name === "RefusedAddressError"
          ? "refused: the host resolves to a private, loopback or link-local address"
          : "the host could not be resolved",
    };
  }
  const lookup: LookupFunction = (_hostname, lookupOptions, callback) => {
    if (lookupOptions.all) {
      callback(null, [{ address: pinned.address, family: pinned.family }]);
    } else {
      callback(null, pinned.address, pinned.family);
    }
  };
  const client = url.protocol === "https:" ? https : http;
  return new Promise<PostOutcome>((resolve) => {
    let settled = false;
    const finish = (outcome: PostOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const request = client.request(
      url,
      {
        method: "POST",
        lookup,
        agent: false,
        headers: {
          ...headers,
          "content-type": "application/json",
          "content-length": String(Buffer.byteLength(body)),
          "user-agent": "SalonNavi-Webhooks/1",
        },
      },
      (response) => {
        let read = 0;
        response.on("data", (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_RESPONSE_BYTES) response.destroy();
        });
        const answered = () =>
          finish({
            kind: "answered",
            status: response.statusCode ?? 0,
            retryAfterMs: parseRetryAfter(
              response.headers["retry-after"] as string | undefined,
              options.now,
            ),
          });
        response.on("end", answered);
        response.on("close", answered);
        response.on("error", answered);
      },
    );
    const timer = setTimeout(() => {
      request.destroy();
      finish({ kind: "failed", error: `no answer within ${options.timeoutMs / 1000} s` });
    }, options.timeoutMs);
    request.on("error", (error: NodeJS.ErrnoException) => {
      finish({ kind: "failed", error: `connection failed (${error.code ?? error.name})` });
    });
    request.end(body);
  });
}
