import { expect, test } from "@playwright/test";

test("probes answer: /healthz for the process, /readyz for the database", async ({ request }) => {
  const health = await request.get("/healthz");
  expect(health.status()).toBe(200);
  expect(await health.json()).toEqual({ status: "ok" });
  const ready = await request.get("/readyz");
  expect(ready.status()).toBe(200);
  expect(await ready.json()).toMatchObject({ status: "ready", database: "pglite" });
});

test("idle connections are kept longer than clients and proxies keep theirs (no reset on reuse)", async ({
  request,
}) => {
  // Node's default of 5 s made a request on a connection idle that long fail with ECONNRESET.
  const response = await request.get("/healthz");
  expect(response.headers()["keep-alive"]).toBe("timeout=65");
});

test("pages carry security headers and a request id", async ({ request }) => {
  const response = await request.get("/about");
  const headers = response.headers();
  expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
  expect(headers["content-security-policy"]).toMatch(/script-src 'self' 'nonce-[^']+'/);
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  expect(headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
  // HSTS only in production; the e2e server runs as development.
  expect(headers["strict-transport-security"]).toBeUndefined();
});

test("the CSP nonce matches the inline scripts", async ({ request }) => {
  const response = await request.get("/");
  const nonce = /'nonce-([^']+)'/.exec(response.headers()["content-security-policy"] ?? "")?.[1];
  expect(nonce).toBeTruthy();
  const html = await response.text();
  const inlineScripts = [...html.matchAll(/<script(?![^>]*\ssrc=)([^>]*)>/g)];
  expect(inlineScripts.length).toBeGreaterThan(0);
  for (const [, attributes] of inlineScripts) expect(attributes).toContain(`nonce="${nonce}"`);
});

test("hashed assets are immutable and text is compressed with brotli or gzip", async ({
  request,
}) => {
  const html = await (await request.get("/")).text();
  // The CSS is inlined into the page (app/root.tsx): a script bundle stands for the hashed assets,
  // the framework chunk (vite.config.ts), which every page loads; entry.client is now under the
  // 1 KB below which nothing is precompressed (vite-plugins/precompress.ts).
  const asset = /href="(\/assets\/framework-[^"]+\.js)"/.exec(html)?.[1];
  expect(asset).toBeTruthy();
  const brotli = await request.get(asset ?? "", { headers: { "accept-encoding": "br" } });
  expect(brotli.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
  expect(brotli.headers()["content-encoding"]).toBe("br");
  const gzip = await request.get(asset ?? "", { headers: { "accept-encoding": "gzip" } });
  expect(gzip.headers()["content-encoding"]).toBe("gzip");
  const page = await request.get("/", { headers: { "accept-encoding": "gzip, br" } });
  expect(page.headers()["content-encoding"]).toBe("br");
  const plain = await request.get("/", { headers: { "accept-encoding": "identity" } });
  expect(plain.headers()["content-encoding"]).toBeUndefined();
  // The build's own manifest is not a public file, compressed or not.
  for (const name of ["manifest.json", "manifest.json.br", "manifest.json.gz"])
    expect((await request.get(`/.vite/${name}`)).status()).toBe(404);
});

test("a public page is shared between anonymous visitors with each one's own nonce", async ({
  request,
  page,
}) => {
  // A query no other test asks, so the first answer is a render.
  const path = "/salons/search?q=%E3%82%AB%E3%83%83%E3%83%88&sort=price-desc&page=2";
  const nonceOf = (csp: string | undefined) => /'nonce-([^']+)'/.exec(csp ?? "")?.[1];
  const first = await request.get(path);
  const second = await request.get(path);
  expect([first.headers()["x-cache"], second.headers()["x-cache"]]).toEqual(["MISS", "HIT"]);
  expect(second.headers()["x-page-cache-ttl"]).toBeUndefined();
  const [firstNonce, secondNonce] = [first, second].map((r) =>
    nonceOf(r.headers()["content-security-policy"]),
  );
  expect(secondNonce).toBeTruthy();
  expect(secondNonce).not.toBe(firstNonce);
  const html = await second.text();
  expect(html).toContain(`nonce="${secondNonce}"`);
  expect(html).not.toContain(String(firstNonce));

  // The shared copy runs in a browser: no CSP violation, and it hydrates.
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  const response = await page.goto(path);
  expect(response?.headers()["x-cache"]).toBe("HIT");
  // Hydrated: the next page comes by client-side navigation, without a reload.
  await page.evaluate(() => {
    (window as unknown as { marker: string }).marker = "spa";
  });
  await page
    .getByRole("navigation", { name: "ページ送り" })
    .getByRole("link", { name: "次へ" })
    .click();
  await expect(page).toHaveURL(/page=3/);
  expect(await page.evaluate(() => (window as unknown as { marker?: string }).marker)).toBe("spa");
  expect(violations).toEqual([]);

  // A signed-in visitor is never served the shared copy.
  const personal = await request.get(path, {
    headers: { cookie: "better-auth.session_token=not-a-session" },
  });
  expect(personal.headers()["x-cache"]).toBeUndefined();
});
