import { Readable, Transform } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import zlib from "node:zlib";
import type { MiddlewareHandler } from "hono";

const compressible = /^(text\/|application\/(json|javascript|xml|manifest\+json)|image\/svg\+xml)/;
// Server-Sent Events must reach the browser event by event; a compressor buffers them.
const streamed = /^text\/event-stream/;
const MIN_BYTES = 1024;
/**
 * Bytes handed to the compressor at once. React writes a page in hundreds of
 * small chunks, and each write is a call into zlib with a fixed cost: brotli
 * spent ~12 ms of CPU on a 140 KB search page fed in 512-byte chunks against
 * ~1.5 ms in 16 KB pieces, which made a search served compressed cost three
 * times the CPU of one served plain (bench/README.md, issue 42).
 */
const PIECE_BYTES = 16 * 1024;

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
              // A 256 KB window instead of the default 4 MB: as large as our pages, and each
              // encoder's buffers count against V8's external memory, so 4 MB windows made V8
              // run a full collection every half second under load (the V8 threads' CPU per
              // search 9.1 → 2.2 ms; the bytes the same: bench/README.md, issue 42).
              [zlib.constants.BROTLI_PARAM_LGWIN]: 18,
            },
          })
        : zlib.createGzip({ level: 6 });
    const body = Readable.fromWeb(res.body as NodeReadableStream)
      .pipe(inPieces(PIECE_BYTES))
      .pipe(compressor);
    // Hono copies the old response's headers onto the new one, so adjust after.
    c.res = new Response(Readable.toWeb(body) as ReadableStream, res);
    c.res.headers.delete("content-length");
    c.res.headers.set("content-encoding", encoding);
    c.res.headers.append("vary", "Accept-Encoding");
  };
}

/** Joins a stream's chunks into pieces of at least `size` bytes (the last may be shorter). */
function inPieces(size: number) {
  let held: Uint8Array[] = [];
  let bytes = 0;
  return new Transform({
    transform(chunk: Uint8Array, _encoding, callback) {
      held.push(chunk);
      bytes += chunk.byteLength;
      if (bytes >= size) {
        this.push(Buffer.concat(held, bytes));
        held = [];
        bytes = 0;
      }
      callback();
    },
    flush(callback) {
      if (bytes > 0) this.push(Buffer.concat(held, bytes));
      callback();
    },
  });
}
