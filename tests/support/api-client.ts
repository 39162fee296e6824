import { createAccountServices } from "../../server/accounts/account-services";
import { loadConfig } from "../../server/config";
import type { DatabaseHandle } from "../../server/db/client";
import { createHttpApp } from "../../server/http/app";
import { createLogger } from "../../server/logger";
import { createSlotEvents, type SlotEvents } from "../../server/realtime/slot-events.server";
import { browser, ORIGIN, signUpThroughApi, uniqueEmail } from "./accounts";
import { checkCall } from "./openapi-contract";

type App = { request: (input: string, init?: RequestInit) => Response | Promise<Response> };

/**
 * A JSON client of the booking API: `user` signs up through /api/auth and
 * then sends only the bearer token (no cookies), as a mobile app would;
 * `guest` sends nothing. Each has its own client address.
 */
export function apiClient(app: App, token?: string, ip?: string) {
  const b = browser(app, ip);
  const request = async (path: string, init: RequestInit & { json?: unknown } = {}) => {
    const headers = new Headers(init.headers);
    if (token) headers.set("authorization", `Bearer ${token}`);
    const { json, ...rest } = init;
    if (json !== undefined) headers.set("content-type", "application/json");
    const response = await app.request(`${ORIGIN}${path}`, {
      ...rest,
      headers: withIp(headers, b.ip),
      body: json === undefined ? rest.body : JSON.stringify(json),
    });
    // Every call a test makes is also a check of the OpenAPI document.
    const contentType = response.headers.get("content-type");
    await checkCall(app, ORIGIN, {
      method: rest.method ?? "GET",
      url: new URL(`${ORIGIN}${path}`),
      body: json ?? parsedJson(rest.body),
      status: response.status,
      contentType,
      answer: contentType?.startsWith("application/json")
        ? await response.clone().json()
        : undefined,
    });
    return response;
  };
  return { request, ip: b.ip, token };
}

function parsedJson(body: RequestInit["body"]) {
  if (typeof body !== "string") return undefined;
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return body;
  }
}

function withIp(headers: Headers, ip: string) {
  headers.set("x-forwarded-for", ip);
  return headers;
}

export async function apiUser(app: App, ip?: string) {
  const email = uniqueEmail("api");
  const signIn = await signUpThroughApi(browser(app), email, "secret1");
  const token = signIn.headers.get("set-auth-token");
  if (signIn.status !== 200 || !token) throw new Error(`sign-in failed: ${signIn.status}`);
  const { user } = (await signIn.json()) as { user: { id: string } };
  return { ...apiClient(app, token, ip), email, userId: user.id };
}

/**
 * The real Hono app (one app server) on a test database, with the booking
 * API's clock fixed and its own slot-event hub, which the test can inspect.
 */
export function createApiTestApp(
  database: DatabaseHandle,
  options: { now?: () => Date; env?: Record<string, string>; heartbeatMs?: number } = {},
) {
  const config = loadConfig({
    PUBLIC_URL: ORIGIN,
    TRUST_PROXY: "true",
    LOG_LEVEL: "silent",
    ...options.env,
  });
  const accounts = createAccountServices(database.db, config);
  const slotEvents: SlotEvents = createSlotEvents(database);
  const app = createHttpApp({
    config,
    database,
    log: createLogger("silent"),
    handleRequest: async () => new Response("react router"),
    accounts,
    slotEvents,
    liveHeartbeatMs: options.heartbeatMs,
    now: options.now,
  });
  return { app, accounts, slotEvents, close: () => slotEvents.close() };
}
