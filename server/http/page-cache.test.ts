import { Hono } from "hono";
import { NONCE, secureHeaders } from "hono/secure-headers";
import { describe, expect, it } from "vitest";
import { cacheKey, PAGE_CACHE_HEADER, pageCache } from "./page-cache";

type Env = { Variables: { secureHeadersNonce?: string } };

/**
 * A page that counts its renders and prints its nonce, behind the real CSP
 * middleware, the way React Router's pages sit behind it in server/http/app.ts.
 */
function site(options: { maxEntries?: number; now?: () => number } = {}) {
  const renders: Record<string, number> = {};
  const app = new Hono<Env>();
  const cache = pageCache({ maxEntries: options.maxEntries ?? 10, now: options.now });
  app.use(secureHeaders({ contentSecurityPolicy: { scriptSrc: [NONCE] } }));
  app.use(cache);
  app.get("*", async (c) => {
    renders[c.req.path] = (renders[c.req.path] ?? 0) + 1;
    // Let concurrent requests pile up behind the first render.
    await new Promise((resolve) => setTimeout(resolve, 20));
    const nonce = c.get("secureHeadersNonce");
    const body = `<script nonce="${nonce}">render ${renders[c.req.path]}</script>`;
    const headers: Record<string, string> = { "content-type": "text/html; charset=utf-8" };
    if (!c.req.path.startsWith("/private")) headers[PAGE_CACHE_HEADER] = "10";
    if (c.req.path.startsWith("/cookie")) headers["set-cookie"] = "a=b";
    return new Response(body, { status: c.req.path.startsWith("/missing") ? 404 : 200, headers });
  });
  return { app, renders, cache };
}

const cspNonce = (response: Response) =>
  /'nonce-([^']+)'/.exec(response.headers.get("content-security-policy") ?? "")?.[1];

describe("page micro-cache", () => {
  it("renders a burst of identical anonymous requests once", async () => {
    const { app, renders } = site();
    const responses = await Promise.all(
      Array.from({ length: 5 }, () => app.request("/salons/search?q=cut")),
    );
    expect(renders["/salons/search"]).toBe(1);
    expect(responses.map((r) => r.headers.get("x-cache")).sort()).toEqual([
      "HIT",
      "HIT",
      "HIT",
      "HIT",
      "MISS",
    ]);
    const bodies = await Promise.all(responses.map((r) => r.text()));
    expect(bodies.every((body) => body.includes("render 1"))).toBe(true);
    expect(responses.every((r) => !r.headers.has(PAGE_CACHE_HEADER))).toBe(true);
  });

  it("writes each response's own CSP nonce into the shared page", async () => {
    const { app } = site();
    const first = await app.request("/salons/1");
    const second = await app.request("/salons/1");
    expect(second.headers.get("x-cache")).toBe("HIT");
    const [firstNonce, secondNonce] = [cspNonce(first), cspNonce(second)];
    expect(firstNonce).toBeTruthy();
    expect(secondNonce).not.toBe(firstNonce);
    expect(await first.text()).toContain(`nonce="${firstNonce}"`);
    const body = await second.text();
    expect(body).toContain(`nonce="${secondNonce}"`);
    expect(body).not.toContain(String(firstNonce));
  });

  it("after the page's seconds, one request renders while the others get the old copy", async () => {
    let clock = 1_000_000;
    const { app, renders } = site({ now: () => clock });
    await app.request("/area");
    clock += 9_999;
    expect((await app.request("/area")).headers.get("x-cache")).toBe("HIT");
    clock += 2;
    const [renderer, other] = await Promise.all([app.request("/area"), app.request("/area")]);
    expect([renderer.headers.get("x-cache"), other.headers.get("x-cache")]).toEqual([
      "MISS",
      "STALE",
    ]);
    expect(await renderer.text()).toContain("render 2");
    expect(await other.text()).toContain("render 1");
    expect((await app.request("/area")).headers.get("x-cache")).toBe("HIT");
    expect(renders["/area"]).toBe(2);

    // Past twice its seconds an old copy is not served any more: a burst waits for one render.
    clock += 20_001;
    const burst = await Promise.all([app.request("/area"), app.request("/area")]);
    expect(burst.map((r) => r.headers.get("x-cache"))).toEqual(["MISS", "HIT"]);
    expect(await burst[1]?.text()).toContain("render 3");
    expect(renders["/area"]).toBe(3);
  });

  it("never shares a signed-in visitor's page, and keys display preferences", async () => {
    const { app, renders } = site();
    const session = { cookie: "__Secure-better-auth.session_token=abc; theme=dark" };
    const signedIn = [
      await app.request("/", { headers: session }),
      await app.request("/", { headers: session }),
    ];
    expect(signedIn.map((r) => r.headers.get("x-cache"))).toEqual([null, null]);
    const bearer = await app.request("/", { headers: { authorization: "Bearer x" } });
    expect(bearer.headers.get("x-cache")).toBeNull();
    expect(renders["/"]).toBe(3);

    const dark = { cookie: "theme=dark; _ga=GA1.1.1" };
    expect((await app.request("/", { headers: dark })).headers.get("x-cache")).toBe("MISS");
    expect(
      (await app.request("/", { headers: { cookie: "_gid=1; theme=dark" } })).headers.get(
        "x-cache",
      ),
    ).toBe("HIT");
    // A signed-out member's device cookie (read only at sign-in) shares the anonymous copy.
    expect(
      (await app.request("/", { headers: { cookie: "device=n.t.s; theme=dark" } })).headers.get(
        "x-cache",
      ),
    ).toBe("HIT");
    expect((await app.request("/")).headers.get("x-cache")).toBe("MISS");
    expect(renders["/"]).toBe(5);
  });

  it("keeps pages that did not opt in, errors and cookie-setting answers out", async () => {
    const { app, renders } = site();
    for (const path of ["/private", "/missing", "/cookie"]) {
      const responses = [await app.request(path), await app.request(path)];
      expect(responses.map((r) => r.headers.get("x-cache"))).toEqual([null, null]);
      expect(responses.every((r) => !r.headers.has(PAGE_CACHE_HEADER))).toBe(true);
      expect(renders[path]).toBe(2);
    }
    expect((await app.request("/cookie")).headers.get("set-cookie")).toBe("a=b");
  });

  it("forgets the least recently used page beyond its size, and can be turned off", async () => {
    const { app, renders } = site({ maxEntries: 2 });
    await app.request("/a");
    await app.request("/b");
    await app.request("/a");
    await app.request("/c");
    expect((await app.request("/a")).headers.get("x-cache")).toBe("HIT");
    expect((await app.request("/b")).headers.get("x-cache")).toBe("MISS");
    expect(renders).toMatchObject({ "/a": 1, "/b": 2, "/c": 1 });

    const off = site({ maxEntries: 0 });
    await off.app.request("/a");
    expect((await off.app.request("/a")).headers.get("x-cache")).toBeNull();
    expect(off.renders["/a"]).toBe(2);
  });

  it("drops every page on purge, and a render begun before it stores nothing", async () => {
    const { app, renders, cache } = site();
    await app.request("/salons/a");
    await app.request("/salons/search");
    expect((await app.request("/salons/a")).headers.get("x-cache")).toBe("HIT");
    cache.purge();
    expect((await app.request("/salons/a")).headers.get("x-cache")).toBe("MISS");
    expect((await app.request("/salons/search")).headers.get("x-cache")).toBe("MISS");
    expect(renders["/salons/a"]).toBe(2);

    // A change commits while a render that read the old data is under way:
    // that page goes to the one who asked, but is neither shared nor kept.
    const during = app.request("/salons/b");
    await new Promise((resolve) => setTimeout(resolve, 5));
    cache.purge();
    const waiting = app.request("/salons/b");
    expect((await during).headers.get("x-cache")).toBe("MISS");
    expect((await waiting).headers.get("x-cache")).toBe("MISS");
    expect(renders["/salons/b"]).toBe(2);
    const during2 = app.request("/salons/c");
    await new Promise((resolve) => setTimeout(resolve, 5));
    cache.purge();
    await during2;
    expect((await app.request("/salons/c")).headers.get("x-cache")).toBe("MISS");
    expect((await app.request("/salons/c")).headers.get("x-cache")).toBe("HIT");
  });

  it("keys by the whole URL", () => {
    const key = (url: string, cookie = "") =>
      cacheKey(new Request(url, { headers: cookie ? { cookie } : {} }));
    expect(key("http://x/s?q=a")).not.toBe(key("http://x/s?q=b"));
    expect(key("http://x/s", "viewport=sp; theme=dark")).toBe(
      key("http://x/s", "theme=dark;viewport=sp"),
    );
    expect(key("http://x/s", "other=1")).toBeNull();
  });
});
