import { Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import zlib from "node:zlib";
import type { MiddlewareHandler } from "hono";

const compressible = /^(text\/|application\/(json|javascript|xml|manifest\+json)|image\/svg\+xml)/;
// Server-Sent Events must reach the browser event by event; a compressor buffers them.
const streamed = /^text\/event-stream/;
const MIN_BYTES = 1024;

/** Picks brotli over gzip when the client accepts both (smaller for text). */
export function chooseEncoding(acceptEncoding: string | undefined): "br" | "gzip" | null {
  const accepted = (acceptEncoding ?? "")
    .split(",")
    .map((part) => part.trim().split(";"))
    .filter(([, q]) => q?.trim() !== "q=0")
    .map(([name]) => name?.trim().toLowerCase());
  if (accepted.includes("br")) return "br";
  if (accepted.includes("gzip")) return "gzip";
  return null;
}

/**
 * Compresses text responses with brotli or gzip. Hono's own `compress`
 * relies on CompressionStream, which has no brotli, so we use node:zlib.
 * Brotli runs at a low quality level: dynamic pages need speed over ratio.
 */
export function compression(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const res = c.res;
    const encoding = chooseEncoding(c.req.header("accept-encoding"));
    const type = res.headers.get("content-type") ?? "";
    const length = Number(res.headers.get("content-length") ?? Number.NaN);
    // `res.body` comes last: reading it turns @hono/node-server's lightweight
    // Response (a string it writes directly) into a stream, a large cost per request.
    if (
      !encoding ||
      c.req.method === "HEAD" ||
      res.headers.has("content-encoding") ||
      !compressible.test(type) ||
      streamed.test(type) ||
      length < MIN_BYTES ||
      !res.body
    ) {
      return;
    }
    const compressor =
      encoding === "br"
        ? zlib.createBrotliCompress({
            params: {
              [zlib.constants.BROTLI_PARAM_QUALITY]: 4,
              [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
            },
          })
        : zlib.createGzip({ level: 6 });
    const body = Readable.fromWeb(res.body as NodeReadableStream).pipe(compressor);
    // Hono copies the old response's headers onto the new one, so adjust after.
    c.res = new Response(Readable.toWeb(body) as ReadableStream, res);
    c.res.headers.delete("content-length");
    c.res.headers.set("content-encoding", encoding);
    c.res.headers.append("vary", "Accept-Encoding");
  };
}
