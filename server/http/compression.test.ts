import { promisify } from "node:util";
import zlib from "node:zlib";
import { Hono } from "hono";
import { streamSSE } from "hono/streaming";
import { describe, expect, it } from "vitest";
import { chooseEncoding, compression } from "./compression";

describe("chooseEncoding", () => {
  it("prefers brotli when both are accepted", () => {
    expect(chooseEncoding("gzip, deflate, br")).toBe("br");
  });
  it("falls back to gzip", () => {
    expect(chooseEncoding("gzip, deflate")).toBe("gzip");
  });
  it("honours q=0 refusals", () => {
    expect(chooseEncoding("br;q=0, gzip")).toBe("gzip");
  });
  it("sends identity when nothing usable is accepted", () => {
    expect(chooseEncoding("identity")).toBeNull();
    expect(chooseEncoding(undefined)).toBeNull();
  });
});

describe("compression", () => {
  const app = new Hono();
  app.use(compression());
  app.get("/page", (c) => c.text("あ".repeat(2000)));
  // Like React's writes: many small pieces, 1.2 MB in all, so several pieces reach the compressor.
  const chunkedPage = Array.from(
    { length: 3000 },
    (_, i) => `<li>${i}番目 ${"サロン".repeat(i % 97)}</li>`,
  );
  app.get("/chunked", () => {
    const encoder = new TextEncoder();
    const stream = new ReadableStream({
      start(controller) {
        for (const chunk of chunkedPage) controller.enqueue(encoder.encode(chunk));
        controller.close();
      },
    });
    return new Response(stream, { headers: { "content-type": "text/html; charset=utf-8" } });
  });
  app.get("/events", (c) =>
    streamSSE(c, async (stream) => {
      await stream.writeSSE({ data: "x".repeat(2000) });
    }),
  );

  it("compresses a large text answer", async () => {
    const response = await app.request("/page", { headers: { "accept-encoding": "gzip" } });
    expect(response.headers.get("content-encoding")).toBe("gzip");
  });
  it("compresses a page written in many small chunks into the same bytes", async () => {
    const response = await app.request("/chunked", { headers: { "accept-encoding": "br" } });
    expect(response.headers.get("content-encoding")).toBe("br");
    const body = await promisify(zlib.brotliDecompress)(Buffer.from(await response.arrayBuffer()));
    expect(body.toString()).toBe(chunkedPage.join(""));
  });
  it("leaves event streams alone, so each event is sent when written", async () => {
    const response = await app.request("/events", { headers: { "accept-encoding": "gzip, br" } });
    expect(response.headers.get("content-encoding")).toBeNull();
    expect(await response.text()).toContain("data: xxx");
  });
});
