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
  app.get("/events", (c) =>
    streamSSE(c, async (stream) => {
      await stream.writeSSE({ data: "x".repeat(2000) });
    }),
  );

  it("compresses a large text answer", async () => {
    const response = await app.request("/page", { headers: { "accept-encoding": "gzip" } });
    expect(response.headers.get("content-encoding")).toBe("gzip");
  });
  it("leaves event streams alone, so each event is sent when written", async () => {
    const response = await app.request("/events", { headers: { "accept-encoding": "gzip, br" } });
    expect(response.headers.get("content-encoding")).toBeNull();
    expect(await response.text()).toContain("data: xxx");
  });
});
