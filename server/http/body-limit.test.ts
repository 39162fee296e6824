import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import type { DomainError } from "../errors/domain-error";
import { bodyLimit, DEFAULT_BODY_LIMIT } from "./body-limit";

type Env = { Variables: { inputError?: DomainError } };

function app() {
  const hono = new Hono<Env>();
  hono.use(
    bodyLimit([{ path: /^\/upload$/, maxBytes: 5 * 1024 * 1024, message: "写真は5MBまでです。" }]),
  );
  hono.all("*", async (c) => {
    const error = c.get("inputError");
    const body = new Uint8Array(await c.req.arrayBuffer());
    return c.json({ error: error ? [error.status, error.message] : null, bytes: body.length });
  });
  return hono;
}

/** A body without Content-Length (sent in chunks). */
function chunked(size: number) {
  let sent = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= size) return controller.close();
      const chunk = new Uint8Array(Math.min(64 * 1024, size - sent)).fill(1);
      sent += chunk.length;
      controller.enqueue(chunk);
    },
  });
}

const post = (path: string, body: BodyInit, headers: Record<string, string> = {}) =>
  app().request(`http://localhost${path}`, {
    method: "POST",
    body,
    headers,
    duplex: "half",
  } as RequestInit);

describe("bodyLimit", () => {
  it("lets bodies within the route's limit through untouched", async () => {
    const small = await post("/contact", new Uint8Array(1000));
    expect(await small.json()).toEqual({ error: null, bytes: 1000 });
    const upload = await post("/upload", new Uint8Array(4 * 1024 * 1024));
    expect(await upload.json()).toEqual({ error: null, bytes: 4 * 1024 * 1024 });
    const streamed = await post("/upload", chunked(3 * 1024 * 1024));
    expect(await streamed.json()).toEqual({ error: null, bytes: 3 * 1024 * 1024 });
  });

  it("hands a page the 413 to show and an empty body, by declared or counted size", async () => {
    const declared = await post("/upload", new Uint8Array(6 * 1024 * 1024), {
      "content-length": String(6 * 1024 * 1024),
    });
    expect(await declared.json()).toEqual({ error: [413, "写真は5MBまでです。"], bytes: 0 });
    const counted = await post("/contact", chunked(DEFAULT_BODY_LIMIT + 1));
    expect(((await counted.json()) as { error: [number, string] }).error[0]).toBe(413);
  });

  it("answers /api with the JSON error and 413", async () => {
    const response = await post("/api/bookings", new Uint8Array(DEFAULT_BODY_LIMIT + 1), {
      "content-type": "application/json",
    });
    expect(response.status).toBe(413);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("payload_too_large");
    expect(body.error.message).toContain("大きすぎます");
  });
});
