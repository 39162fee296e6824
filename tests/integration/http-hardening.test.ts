import { afterAll, beforeAll, describe, expect, it } from "vitest";
import routes from "../../app/routes";
import { salonPhotos } from "../../server/db/schema";
import { createLogger } from "../../server/logger";
import { browser, lastMailLink, ORIGIN, uniqueEmail } from "../support/accounts";
import { buildSalon } from "../support/builders";
import { createFullApp } from "../support/full-app";
import { withTestDatabase } from "../support/test-database";

// The whole app (Hono and every route) without a port: what a browser or a
// hostile client gets for bad input, the headers, and the HTML of each page.
const database = withTestDatabase();
let full: Awaited<ReturnType<typeof createFullApp>>;

beforeAll(async () => {
  full = await createFullApp(database, {
    PUBLIC_URL: ORIGIN,
    TRUST_PROXY: "true",
    RATE_LIMIT_PER_IP: "1000",
    RATE_LIMIT_PER_ACCOUNT: "1000",
  });
});
afterAll(async () => {
  await full?.close();
});

const form = { "content-type": "application/x-www-form-urlencoded" };

async function verifiedUser() {
  const b = browser(full.app);
  const email = uniqueEmail("hardening");
  await b.request("/api/auth/sign-up/email", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password: "secret1-Hard", name: "hardening" }),
  });
  await b.request(await lastMailLink(database.db, email));
  return b;
}

describe("bad input", () => {
  it("ignores an unreadable preference cookie and overwrites it", async () => {
    const response = await browser(full.app).request("/", {
      headers: { cookie: "theme=%E0; viewport=%zz" },
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('data-theme="light"');
    const cookies = response.headers.getSetCookie().join("\n");
    expect(cookies).toContain("theme=light");
    expect(cookies).toContain("viewport=desktop");
  });

  it("answers a NUL byte in the URL with a 400 page in Japanese", async () => {
    const response = await browser(full.app).request("/salons/search?q=%00");
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("URLに使用できない文字が含まれています");
  });

  it("searches a keyword past 100 characters by its start, says so and keeps it in the box", async () => {
    const long = `渋谷 ${"ネイル ".repeat(35)}`.trim();
    const response = await browser(full.app).request(
      `/salons/search?${new URLSearchParams({ q: long })}`,
    );
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain("キーワードが長すぎるため、最初の100文字で検索しました。");
    expect(html).toContain(`value="${long}"`);
    expect(html).toContain('aria-describedby="search-q-error"');
  });

  it("sends a search for a place or feature that does not exist to the same search without it", async () => {
    const response = await browser(full.app).request(
      "/salons/search?q=%E3%82%AB%E3%83%83%E3%83%88&area=atlantis&feature=late",
      { redirect: "manual" },
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/salons/search?q=%E3%82%AB%E3%83%83%E3%83%88");
  });

  it("keeps what was typed in a form, without the NUL bytes", async () => {
    const response = await browser(full.app).request("/contact", {
      method: "POST",
      headers: form,
      body: "name=%E5%B1%B1%E7%94%B0%00%E8%8A%B1%E5%AD%90&email=&category=&body=",
    });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('value="山田花子"');
  });

  it("answers a form post that is not a form with a 4xx page in Japanese", async () => {
    const b = browser(full.app);
    // A page held in the page cache is not what a refused post gets.
    expect((await b.request("/area")).status).toBe(200);
    const cached = await b.request("/area", { method: "POST", body: "x" });
    expect(cached.status).toBe(415);
    const plain = await b.request("/signin", {
      method: "POST",
      headers: { "content-type": "text/plain" },
      body: "email=a",
    });
    expect(plain.status).toBe(415);
    expect(await plain.text()).toContain("送信内容の形式が正しくありません");
    const truncated = await b.request("/signin", {
      method: "POST",
      headers: { "content-type": "multipart/form-data; boundary=xyz" },
      body: '--xyz\r\nContent-Disposition: form-data; name="email"\r\n\r\nabc',
    });
    expect(truncated.status).toBe(400);
    expect(await truncated.text()).toContain("送信内容を読み取れませんでした");
  });

  it("answers bad /api/auth input with a JSON error in Japanese", async () => {
    const b = await verifiedUser();
    const cases = [
      b.request("/api/auth/update-user", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name: null }),
      }),
      b.request("/api/auth/verify-email?token=%00"),
      b.request("/api/auth/verify-email?token=x&callbackURL=%E0"),
      b.request("/api/auth/sign-in/email", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "a\u0000@example.jp", password: "x" }),
      }),
    ];
    for (const response of await Promise.all(cases)) {
      expect(response.status).toBe(400);
      const body = (await response.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toMatch(/^[a-z_]+$/);
      expect(body.error.message).toMatch(/[ぁ-んァ-ン一-龯]/);
    }
  });

  it("rewrites Better Auth's own 4xx answers into our Japanese JSON error", async () => {
    const b = await verifiedUser();
    const wrong = await b.request("/api/auth/sign-in/email", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "nobody@example.jp", password: "not-the-password-1" }),
    });
    expect(wrong.status).toBe(401);
    const body = (await wrong.json()) as { code: string; error: { code: string; message: string } };
    expect(body.error.code).toBe("invalid-credential");
    expect(body.error.message).toContain("メールアドレスまたはパスワードが正しくありません");
    // Better Auth's own code stays for its clients.
    expect(body.code).toBe("INVALID_EMAIL_OR_PASSWORD");
    const unknownShape = await b.request("/api/auth/sign-in/email", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "not-an-address", password: "x" }),
    });
    expect(unknownShape.status).toBeGreaterThanOrEqual(400);
    expect(unknownShape.status).toBeLessThan(500);
    const generic = (await unknownShape.json()) as { error: { code: string; message: string } };
    expect(generic.error.message).toMatch(/[ぁ-んァ-ン一-龯]/);
  });

  it("sends a verified user who posts to /mail_not_confirm back to the page", async () => {
    const b = await verifiedUser();
    const response = await b.request("/mail_not_confirm", {
      method: "POST",
      headers: form,
      body: "",
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/mail_not_confirm");
  });
});

describe("headers", () => {
  it("sends a Permissions-Policy on every answer", async () => {
    const b = browser(full.app);
    for (const path of ["/", "/healthz", "/api/auth/password-policy", "/nope"]) {
      const policy = (await b.request(path)).headers.get("permissions-policy") ?? "";
      expect(policy).toContain("camera=()");
      expect(policy).toContain("microphone=()");
      expect(policy).toContain("geolocation=(self)");
    }
  });

  it("keeps /api answers and signed-in pages out of every cache", async () => {
    const guest = browser(full.app);
    for (const path of ["/api/auth/password-policy", "/api/route-rules?path=/", "/api/accounts"]) {
      expect((await guest.request(path)).headers.get("cache-control")).toBe("private, no-store");
    }
    const publicPage = await guest.request("/about");
    expect(publicPage.headers.get("cache-control") ?? "").not.toContain("private");
    const user = await verifiedUser();
    for (const path of ["/about", "/account/edit", "/"]) {
      expect((await user.request(path)).headers.get("cache-control")).toBe("private, no-store");
    }
  });
});

describe("HTML", () => {
  it("has no <style> in the body and no img sizes without srcset, on every page", async () => {
    const salon = await buildSalon(database.db);
    await database.db.insert(salonPhotos).values([
      { salonId: salon.id, url: "/images/a.jpg", alt: "店内", width: 800, height: 600 },
      {
        salonId: salon.id,
        url: "/images/b.jpg",
        alt: "外観",
        width: 800,
        height: 600,
        sortOrder: 1,
      },
    ]);
    const paths = [
      ...routes.flatMap((entry) =>
        entry.path === undefined || entry.path.includes(":") || entry.path.includes("*")
          ? entry.index
            ? ["/"]
            : []
          : [`/${entry.path}`],
      ),
      `/salons/${salon.slug}`,
      "/no-such-page",
    ];
    const b = browser(full.app);
    const problems: string[] = [];
    for (const path of paths) {
      const response = await b.request(path);
      const html = await response.text();
      if (!(response.headers.get("content-type") ?? "").includes("text/html")) continue;
      const body = html.slice(html.indexOf("<body"));
      if (/<style[\s>]/i.test(body)) problems.push(`${path}: <style> in body`);
      for (const img of html.match(/<img\b[^>]*>/gi) ?? []) {
        if (/\ssizes=/i.test(img) && !/\ssrcset=/i.test(img)) problems.push(`${path}: ${img}`);
      }
    }
    expect(paths).toContain(`/salons/${salon.slug}`);
    expect(problems).toEqual([]);
  });
});

describe("a form post React Router refuses", () => {
  it("is logged as a warning without a stack, not as an error (anyone can send one)", async () => {
    const lines: string[] = [];
    const app = full.serverOn(database, {
      log: createLogger("info", {}, (line) => lines.push(line)),
    });
    // Sec-Fetch-Site passes our own check; React Router compares the Origin with the URL.
    for (const [path, origin] of [
      ["/signin", "https://evil.example"],
      ["/signin.data", "https://evil.example"],
      ["/signin", "not a url"],
    ] as const) {
      const response = await app.request(`${ORIGIN}${path}`, {
        method: "POST",
        headers: { ...form, origin, "sec-fetch-site": "same-origin" },
        body: "email=a%40example.jp&password=secret1",
      });
      expect(response.status, path).toBe(400);
    }
    const logged = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(logged.filter((entry) => entry.level === "error")).toEqual([]);
    const refusals = logged.filter((entry) => entry.level === "warn");
    expect(refusals).toHaveLength(3);
    for (const entry of refusals) expect(entry).not.toHaveProperty("stack");
  });
});
