import { eq } from "drizzle-orm";
import {
  type AccountServices,
  createAccountServices,
} from "../../server/accounts/account-services";
import { loadConfig } from "../../server/config";
import type { Database } from "../../server/db/client";
import { mailOutbox, users } from "../../server/db/schema";
import { createHttpApp } from "../../server/http/app";
import { createLogger } from "../../server/logger";
import type { TestDatabase } from "./test-database";

export const ORIGIN = "http://localhost:3000";

/** Cookies of one browser, kept from Set-Cookie headers and sent back. */
export class CookieJar {
  private cookies = new Map<string, string>();

  store(headers: Headers) {
    for (const line of headers.getSetCookie()) {
      const [pair = ""] = line.split(";");
      const index = pair.indexOf("=");
      const name = pair.slice(0, index).trim();
      const value = pair.slice(index + 1).trim();
      const expired = /max-age=0/i.test(line) || value === "";
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  header() {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  has(prefix: string) {
    return [...this.cookies.keys()].some((name) => name.includes(prefix));
  }
}

/**
 * The real Hono app with auth on a test database; React Router is replaced
 * by a stand-in, since these tests drive /api and the domain functions.
 */
export function createAccountsApp(database: TestDatabase, env: Record<string, string> = {}) {
  const config = loadConfig({
    PUBLIC_URL: ORIGIN,
    TRUST_PROXY: "true",
    LOG_LEVEL: "silent",
    ...env,
  });
  const accounts: AccountServices = createAccountServices(database.db, config);
  const app = createHttpApp({
    config,
    database,
    log: createLogger("silent"),
    handleRequest: async () => new Response("react router"),
    accounts,
  });
  return { app, accounts, config };
}

let ipCounter = 0;
/** A distinct client address per browser, so tests do not share IP rate limits. */
export const nextIp = () => `203.0.113.${(ipCounter++ % 250) + 1}`;

/** A browser: requests carry its cookies, its address and a same-site Origin. */
export function browser(
  app: { request: (input: string, init?: RequestInit) => Response | Promise<Response> },
  ip = nextIp(),
) {
  const jar = new CookieJar();
  const request = async (path: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    headers.set("origin", ORIGIN);
    headers.set("x-forwarded-for", ip);
    const cookie = jar.header();
    if (cookie) headers.set("cookie", cookie);
    const response = await app.request(`${ORIGIN}${path}`, {
      redirect: "manual",
      ...init,
      headers,
    });
    jar.store(response.headers);
    return response;
  };
  /** A Request as React Router would hand it to a loader or action. */
  const toRequest = (path: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    headers.set("origin", ORIGIN);
    headers.set("x-client-ip", ip);
    const cookie = jar.header();
    if (cookie) headers.set("cookie", cookie);
    return new Request(`${ORIGIN}${path}`, { ...init, headers });
  };
  return { jar, request, toRequest, ip, keep: (headers: Headers) => jar.store(headers) };
}

export async function outboxFor(db: Database, to: string) {
  return db.select().from(mailOutbox).where(eq(mailOutbox.to, to)).orderBy(mailOutbox.createdAt);
}

/** The first link in the newest mail to `to`, as a path on this site. */
export async function lastMailLink(db: Database, to: string) {
  const mails = await outboxFor(db, to);
  const mail = mails.at(-1);
  if (!mail) throw new Error(`no mail to ${to}`);
  const url = mail.text.match(/https?:\/\/\S+/)?.[0];
  if (!url) throw new Error("mail without link");
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

export async function setRole(db: Database, email: string, role: "user" | "owner" | "admin") {
  await db.update(users).set({ role }).where(eq(users.email, email));
}

let emailCounter = 0;
export const uniqueEmail = (name = "user") =>
  `${name}-${Date.now().toString(36)}-${emailCounter++}@example.jp`;

/**
 * Signs up through /api/auth, which signs nobody in (decision 0026, so a
 * registered address gets the same answer), then signs in with the password:
 * the sign-in's answer, whose cookies the browser keeps (and bearer token).
 */
export async function signUpThroughApi(
  b: ReturnType<typeof browser>,
  email: string,
  password: string,
  name = "",
) {
  const json = { "content-type": "application/json" };
  const signUp = await b.request("/api/auth/sign-up/email", {
    method: "POST",
    headers: json,
    body: JSON.stringify({ email, password, name }),
  });
  if (signUp.status !== 200) throw new Error(`sign-up failed: ${signUp.status}`);
  return b.request("/api/auth/sign-in/email", {
    method: "POST",
    headers: json,
    body: JSON.stringify({ email, password }),
  });
}

/**
 * A browser signed in as a new, verified user with a completed profile, made
 * by the server's test-only POST /api/test/login (E2E_LOGIN): its id too.
 */
export async function testLogin(
  app: Parameters<typeof browser>[0],
  db: Database,
  role: "user" | "owner" | "admin",
) {
  const b = browser(app);
  const response = await b.request("/api/test/login", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ role }),
  });
  if (response.status !== 201) throw new Error(`test login: ${response.status}`);
  const { email } = (await response.json()) as { email: string };
  const [user] = await db.select().from(users).where(eq(users.email, email));
  if (!user) throw new Error("no user");
  return { b, userId: user.id };
}
