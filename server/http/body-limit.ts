import type { Context, MiddlewareHandler } from "hono";
import { BadRequestError, type DomainError } from "../errors/domain-error";
import { domainErrorResponse, isApiPath } from "./errors";

/** Any body but a photo upload: forms and JSON of this site are a few kilobytes. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

export type BodyLimitRule = { path: RegExp; maxBytes: number; message: string };

const DEFAULT_MESSAGE =
  "送信内容が大きすぎます。入力内容を減らしてから、もう一度送信してください。";
const SAFE_METHOD = /^(GET|HEAD|OPTIONS)$/;
/**
 * A refused body is still read (and thrown away) up to this size, so the
 * browser, which sends the whole body before it reads the answer, shows our
 * message instead of a reset connection. Beyond it the connection just closes.
 */
const DRAIN_LIMIT = 32 * 1024 * 1024;

type Env = { Variables: { inputError?: DomainError } };

/**
 * Bodies larger than the route allows are refused with 413 and a Japanese
 * message before anything reads them (the input screen parses forms in
 * full). Only routes listed in `rules` (the photo upload) accept more than
 * DEFAULT_BODY_LIMIT. Pages get the error screen, as input-screen.ts does.
 */
export function bodyLimit(rules: BodyLimitRule[]): MiddlewareHandler<Env> {
  return async (c, next) => {
    if (SAFE_METHOD.test(c.req.method) || !c.req.raw.body) return next();
    const rule = rules.find((candidate) => candidate.path.test(c.req.path));
    const max = rule?.maxBytes ?? DEFAULT_BODY_LIMIT;
    const declared = c.req.header("content-length");
    let tooLarge: boolean;
    if (declared !== undefined && /^\d+$/.test(declared)) {
      tooLarge = Number(declared) > max;
      if (tooLarge && Number(declared) <= DRAIN_LIMIT) await drain(c.req.raw);
    } else {
      // No length given (chunked): read at most max + 1 bytes to find out.
      const buffered = await readAtMost(c.req.raw, max);
      tooLarge = buffered === null;
      if (buffered) replaceBody(c, buffered);
    }
    if (!tooLarge) return next();
    const error = new BadRequestError("payload_too_large", rule?.message ?? DEFAULT_MESSAGE, 413);
    if (isApiPath(c.req.path)) return domainErrorResponse(c, error);
    c.set("inputError", error);
    replaceBody(c, new URLSearchParams());
    return next();
  };
}

async function drain(request: Request) {
  try {
    const reader = request.body?.getReader();
    if (!reader) return;
    for (;;) if ((await reader.read()).done) return;
  } catch {}
}

/** The whole body when it has at most `max` bytes, else null (the rest left unread). */
async function readAtMost(request: Request, max: number): Promise<Uint8Array | null> {
  const reader = request.body?.getReader();
  if (!reader) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > DRAIN_LIMIT) {
      await reader.cancel().catch(() => {});
      return null;
    }
    // Past the limit the rest is read and dropped (see DRAIN_LIMIT).
    if (total <= max) chunks.push(value);
  }
  if (total > max) return null;
  const body = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.length;
  }
  return body;
}

function replaceBody(c: Context, body: Uint8Array | URLSearchParams) {
  const old = c.req.raw;
  const headers = new Headers(old.headers);
  headers.delete("content-length");
  if (body instanceof URLSearchParams) headers.delete("content-type");
  c.req.raw = new Request(old.url, {
    method: old.method,
    headers,
    body: body as BodyInit,
    signal: old.signal,
  });
}
