import type { RouteConfigEntry } from "@react-router/dev/routes";
import { afterAll, beforeAll, describe, expect, it, type MockInstance, vi } from "vitest";
import routes from "../../app/routes";
import { createAccountServices } from "../../server/accounts/account-services";
import { loadConfig } from "../../server/config";
import { browser, lastMailLink, ORIGIN, uniqueEmail } from "../support/accounts";
import { createFullApp } from "../support/full-app";
import { withTestDatabase } from "../support/test-database";

/**
 * Hostile input against every page (from app/routes.ts, so new routes are
 * covered without editing this file), every form action and every /api
 * endpoint (Better Auth's list and ours), as a guest and signed in. Any
 * answer of 500 or above fails: bad input must get a 4xx (or be ignored).
 */
const env = {
  PUBLIC_URL: ORIGIN,
  TRUST_PROXY: "true",
  RATE_LIMIT_PER_IP: "1000000",
  RATE_LIMIT_PER_ACCOUNT: "1000000",
};

const HOSTILE = [
  "%00",
  "%E0",
  encodeURIComponent("x".repeat(6000)),
  "a%00b",
  "%",
  "%zz",
  "%C0%AF",
  encodeURIComponent("\uFFFE<script>"),
];
const FIELDS = [
  "email",
  "password",
  "currentPassword",
  "newPassword",
  "passwordConfirmation",
  "name",
  "nameKana",
  "phone",
  "gender",
  "birthDate",
  "theme",
  "returnTo",
  "redirect",
  "token",
  "category",
  "message",
  "q",
  "intent",
  "provider",
];
const ODD_COOKIES = [
  "theme=%E0; viewport=%",
  "theme=a%00b; viewport=%zz",
  `theme=${"x".repeat(4000)}`,
  "=; ;;===; better-auth.session_token=%E0%00",
];

/** The route pattern as a path: "x" in each parameter, or each hostile value in turn. */
function fill(pattern: string, value: string) {
  const path = pattern.replace(/:\w+/g, value).replace(/\*$/, `missing-${value}`);
  return `/${path}`.replace(/(.)\/$/, "$1");
}

function flatten(entries: RouteConfigEntry[], prefix = ""): string[] {
  return entries.flatMap((entry) => {
    const path = [prefix, entry.path ?? ""].filter(Boolean).join("/");
    return [
      ...(entry.index || entry.path !== undefined ? [path] : []),
      ...flatten(entry.children ?? [], path),
    ];
  });
}

type Case = {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: BodyInit;
  /** The route a POST belongs to, and whether it probes for an action there. */
  group?: string;
  probe?: boolean;
};

function urlencoded(value: string) {
  return FIELDS.map((field) => `${field}=${value}`).join("&");
}

function multipart(value: string, close: boolean) {
  const parts = FIELDS.map(
    (field) => `--b0undary\r\nContent-Disposition: form-data; name="${field}"\r\n\r\n${value}\r\n`,
  ).join("");
  return close ? `${parts}--b0undary--\r\n` : parts.slice(0, -20);
}

/** The same hostile values, turned so each query parameter gets a different one per request. */
function mixedQuery(turn: number) {
  const names = ["q", "page", "redirect", "token", "genre", "date", "area", "sort"];
  const values = HOSTILE.slice(1);
  return names.map((name, i) => `${name}=${values[(i + turn) % values.length]}`).join("&");
}

/**
 * Hostile values in the URL, cookies and body of one route. Signed in, the
 * same code paths run with fewer URL variants. The first POST probes for an
 * action: a route without one answers 405 and its other POSTs are skipped.
 */
function pageCases(pattern: string, thorough: boolean): Case[] {
  const path = fill(pattern, "x");
  const data = `${path === "/" ? "/_root" : path}.data`;
  const form = { "content-type": "application/x-www-form-urlencoded" };
  const turns = thorough ? [0, 1, 2] : [0];
  const post = (headers: Record<string, string> | undefined, body?: string): Case => ({
    method: "POST",
    path,
    headers,
    body,
    group: pattern,
  });
  return [
    ...(thorough && /[:*]/.test(pattern)
      ? HOSTILE.map((value) => ({ method: "GET", path: fill(pattern, value) }))
      : []),
    { method: "GET", path },
    ...(thorough ? [{ method: "GET", path: data }] : []),
    { method: "GET", path: `${path}?q=%00&token=a%00b` },
    ...turns.map((turn) => ({
      method: "GET",
      path: `${path}?${mixedQuery(turn)}`,
      headers: { cookie: ODD_COOKIES[turn % ODD_COOKIES.length] ?? "" },
    })),
    { ...post(form, urlencoded("%E0")), probe: true },
    post(undefined),
    post({ "content-type": "text/plain" }, "email=a"),
    post({ "content-type": "application/json" }, '{"email":null}'),
    post({ "content-type": "multipart/form-data" }, "x"),
    post({ "content-type": "multipart/form-data; boundary=b0undary" }, multipart("abc", false)),
    post({ "content-type": "multipart/form-data; boundary=b0undary" }, multipart("a\u0000b", true)),
    post(form, urlencoded("%00")),
    post(form, urlencoded(HOSTILE[2] ?? "")),
    post({ ...form, cookie: ODD_COOKIES[3] ?? "" }, urlencoded("a")),
    { ...post(form, urlencoded("a%00b")), path: data },
  ];
}

const JSON_BODIES = [
  "null",
  "[]",
  "1",
  '"x"',
  "{",
  "{}",
  JSON.stringify(Object.fromEntries(FIELDS.map((field) => [field, null]))),
  JSON.stringify(Object.fromEntries(FIELDS.map((field) => [field, 1]))),
  JSON.stringify(Object.fromEntries(FIELDS.map((field) => [field, ["a"]]))),
  JSON.stringify(Object.fromEntries(FIELDS.map((field) => [field, { a: 1 }]))),
  JSON.stringify(Object.fromEntries(FIELDS.map((field) => [field, "a\u0000b"]))),
  JSON.stringify({ email: "a@example.jp", name: null, image: 5, callbackURL: null }),
];

/** Nesting JSON.parse accepts and a recursive walk of it would not survive. */
const DEEP_BODIES = [
  "[".repeat(20_000),
  "[".repeat(20_000) + "]".repeat(20_000),
  `${'{"a":'.repeat(20_000)}1${"}".repeat(20_000)}`,
  `{"email":"a@example.jp","x":${"[".repeat(5_000)}${"]".repeat(5_000)}}`,
];

/** Signed in, the body checks that need a session; the rest ran as a guest. */
const SIGNED_IN_BODIES = [...JSON_BODIES.slice(5), ...DEEP_BODIES];

function apiCases(path: string, method: string, thorough: boolean): Case[] {
  if (method === "GET") {
    return [
      { method, path },
      { method, path, headers: { cookie: ODD_COOKIES[3] ?? "" } },
      ...(thorough ? HOSTILE : HOSTILE.slice(0, 3)).map((value) => ({
        method,
        path: `${path}?token=${value}&callbackURL=${value}&id=${value}&path=${value}&providerId=${value}`,
      })),
    ];
  }
  return [
    { method, path },
    { method, path, headers: { "content-type": "text/plain" }, body: "x" },
    {
      method,
      path,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: urlencoded("%00"),
    },
    {
      method,
      path,
      headers: { "content-type": "multipart/form-data; boundary=b0undary" },
      body: multipart("abc", false),
    },
    ...(thorough ? [...JSON_BODIES, ...DEEP_BODIES] : SIGNED_IN_BODIES).map((body) => ({
      method,
      path,
      headers: { "content-type": "application/json" },
      body,
    })),
    {
      method,
      path: `${path}?token=%00`,
      headers: { "content-type": "application/json" },
      body: "{}",
    },
  ];
}

/** Endpoints that end the session run last, so the signed-in pass stays signed in. */
const ENDS_SESSION = /sign-?out|revoke|delete|unlink/;

async function run(
  b: ReturnType<typeof browser>,
  cases: Case[],
  label: string,
  failures: string[],
) {
  const ordered = [
    ...cases.filter((c) => !ENDS_SESSION.test(c.path)),
    ...cases.filter((c) => ENDS_SESSION.test(c.path)),
  ];
  const withoutAction = new Set<string>();
  for (const c of ordered) {
    if (c.group && !c.probe && withoutAction.has(c.group)) continue;
    const response = await b.request(c.path, {
      method: c.method,
      headers: c.headers,
      body: c.body,
    });
    if (response.status >= 500) {
      failures.push(
        `${label} ${c.method} ${c.path.slice(0, 120)} ${JSON.stringify(c.headers ?? {})} ${String(c.body ?? "").slice(0, 60)} → ${response.status}`,
      );
    }
    if (c.probe && c.group && response.status === 405) withoutAction.add(c.group);
    await response.body?.cancel();
  }
}

// Engine-independent (the screen sits in front of the database): PGlite only, to keep the suite quick.
describe.skipIf(process.env.TEST_DB_ENGINE === "postgres")("hostile input (fuzz)", () => {
  // Inside the skipped describe: PostgreSQL creates no database for it.
  const database = withTestDatabase();
  let full: Awaited<ReturnType<typeof createFullApp>>;
  let accounts: ReturnType<typeof createAccountServices>;
  let warnSpy: MockInstance<typeof console.warn> | undefined;

  beforeAll(async () => {
    // React Router warns once per path it cannot decode (and then serves the 404): expected here.
    const warn = console.warn;
    warnSpy = vi.spyOn(console, "warn").mockImplementation((...args: unknown[]) => {
      if (!String(args[0]).includes("could not be decoded")) warn(...args);
    });
    accounts = createAccountServices(database.db, loadConfig({ LOG_LEVEL: "silent", ...env }));
    full = await createFullApp(database, env, accounts);
  });
  afterAll(async () => {
    await full?.close();
    await accounts?.close();
    // The worker runs later files in the same process (isolate: false).
    warnSpy?.mockRestore();
  });

  async function signedIn() {
    const b = browser(full.app);
    const email = uniqueEmail("fuzz");
    await b.request("/api/auth/sign-up/email", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email, password: "secret1-Fuzz", name: "fuzz" }),
    });
    await b.request(await lastMailLink(database.db, email));
    return b;
  }

  it("gets no 5xx from any page or form action", { timeout: 120_000 }, async () => {
    const patterns = flatten(routes);
    const failures: string[] = [];
    await run(
      browser(full.app),
      patterns.flatMap((p) => pageCases(p, true)),
      "guest",
      failures,
    );
    await run(
      await signedIn(),
      patterns.flatMap((p) => pageCases(p, false)),
      "user",
      failures,
    );
    expect(failures).toEqual([]);
  });

  it("gets no 5xx from any /api endpoint", async () => {
    const endpoints = Object.values(
      accounts.auth.api as Record<
        string,
        { path?: string; options?: { method?: string | string[] } }
      >,
    )
      .filter((endpoint) => typeof endpoint.path === "string")
      .flatMap((endpoint) => {
        const methods = [endpoint.options?.method ?? "GET"].flat().filter((m) => m !== "*");
        return methods.map((method) => ({ method, path: `/api/auth${endpoint.path}` }));
      });
    const ours = full.app.routes
      .filter((route) => route.path.startsWith("/api/") && !route.path.includes("*"))
      .map((route) => ({
        method: route.method === "ALL" ? "GET" : route.method,
        path: route.path,
      }));
    // Paths no endpoint has, with broken encodings in them.
    const strays = [
      "/api/auth/%E0",
      "/api/auth/sign-in/%00",
      "/api/%zz",
      "/api/accounts/%",
    ].flatMap((path) => [
      { method: "GET", path },
      { method: "POST", path },
    ]);
    const all = [...endpoints, ...ours, ...strays];
    const failures: string[] = [];
    const cases = (thorough: boolean) =>
      all.flatMap(({ method, path }) => apiCases(path, method, thorough));
    await run(browser(full.app), cases(true), "guest", failures);
    await run(await signedIn(), cases(false), "user", failures);
    expect(failures).toEqual([]);
  });
});
