import { randomUUID, timingSafeEqual } from "node:crypto";
import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local, stateful stand-in for the few Messaging API endpoints we use
 * (issue 41 §1, decision 0089), as the fake Stripe is for payments: the
 * official `@line/bot-sdk` talks to it over HTTP exactly as to api.line.me.
 * It checks the bearer token, keeps LINE's retry-key rule (a key accepted
 * once answers 409 to every later request, which we count as sent), keeps
 * what it received per LINE user (/dev/line), and fails on request for tests.
 */

/** What the fake accepted: one push to one LINE user. */
export type ReceivedPush = {
  to: string;
  messages: Record<string, unknown>[];
  retryKey: string | null;
  requestId: string;
  at: Date;
};

/** Every request, answered or not, for the check against the SDK's types. */
export type FakeLineRequest = {
  method: string;
  path: string;
  body: unknown;
  retryKey: string | null;
  status: number;
};

export type FakeLineOptions = {
  /** The channel access token the API accepts as Bearer. */
  accessToken: string;
  port?: number;
  host?: string;
  now?: () => Date;
};

/** LINE's retry key is a UUID (any version), written in hexadecimal with hyphens. */
const RETRY_KEY = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A LINE user id: U and 32 hexadecimal digits. */
const USER_ID = /^U[0-9a-f]{32}$/;
const MAX_MESSAGES = 5;
const MAX_TEXT = 5000;
const MAX_BODY_BYTES = 1024 * 1024;

export class FakeLine {
  readonly received: ReceivedPush[] = [];
  readonly requests: FakeLineRequest[] = [];
  private readonly accepted = new Map<string, string>();
  private faults: { status: 429 | 500; times: number }[] = [];
  private server: Server | null = null;
  private baseUrl = "";
  private waiters: { test: () => boolean; resolve: () => void }[] = [];

  constructor(private readonly options: FakeLineOptions) {}

  /** Starts listening; resolves with the API base URL (LINE_API_URL). */
  async start(): Promise<string> {
    this.server = createServer((request, response) => {
      this.handle(request, response).catch(() => {
        if (!response.headersSent) answer(response, 500, { message: "Internal error" });
      });
    });
    this.server.listen(this.options.port ?? 0, this.options.host ?? "127.0.0.1");
    await once(this.server, "listening");
    const address = this.server.address() as AddressInfo;
    const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
    this.baseUrl = `http://${host}:${address.port}`;
    return this.baseUrl;
  }

  get url() {
    return this.baseUrl;
  }

  async close(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    this.server.close();
    await once(this.server, "close");
    this.server = null;
  }

  /** The next `times` push requests answer `status` (429 or 500) and deliver nothing. */
  failNext(times: number, status: 429 | 500 = 500) {
    this.faults.push({ status, times });
  }

  /** Forgets what was received (tests that share one fake). */
  reset() {
    this.received.length = 0;
    this.requests.length = 0;
    this.accepted.clear();
    this.faults = [];
  }

  /** What one LINE user received, oldest first. */
  receivedBy(lineUserId: string) {
    return this.received.filter((push) => push.to === lineUserId);
  }

  /** Resolves once `test` holds (checked after every request): a test's wait without sleeping. */
  waitFor(test: () => boolean): Promise<void> {
    if (test()) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ test, resolve }));
  }

  private notify() {
    this.waiters = this.waiters.filter((waiter) => {
      if (!waiter.test()) return true;
      waiter.resolve();
      return false;
    });
  }

  private async handle(request: IncomingMessage, response: ServerResponse) {
    const method = request.method ?? "GET";
    const path = new URL(request.url ?? "/", "http://fake").pathname;
    const raw = await readBody(request);
    const retryKey = header(request, "x-line-retry-key");
    let body: unknown = null;
    const record = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
      this.requests.push({ method, path, body, retryKey, status });
      answer(response, status, payload, headers);
      this.notify();
    };
    if (raw === null) return record(413, { message: "Request entity too large" });
    if (!this.authorized(header(request, "authorization"))) {
      return record(401, {
        message:
          "Authentication failed. Confirm that the access token in the authorization field is valid.",
      });
    }
    const endpoint = `${method} ${path}`;
    if (endpoint === "GET /v2/bot/message/quota") {
      return record(200, { type: "none" });
    }
    if (endpoint === "GET /v2/bot/message/quota/consumption") {
      return record(200, { totalUsage: this.received.length });
    }
    if (endpoint !== "POST /v2/bot/message/push") return record(404, { message: "Not found" });
    try {
      body = JSON.parse(raw.toString("utf8"));
    } catch {
      return record(400, { message: "The request body has 1 error(s)" });
    }
    if (retryKey !== null && !RETRY_KEY.test(retryKey)) {
      return record(400, { message: "The value for the 'X-Line-Retry-Key' header is invalid" });
    }
    const problem = pushProblem(body);
    if (problem) {
      return record(400, {
        message: "The request body has 1 error(s)",
        details: [{ message: problem.message, property: problem.property }],
      });
    }
    const fault = this.faults[0];
    if (fault) {
      fault.times -= 1;
      if (fault.times <= 0) this.faults.shift();
      return record(fault.status, {
        message: fault.status === 429 ? "Too Many Requests" : "An error occurred in the API server",
      });
    }
    // LINE keeps a retry key for 24 hours: a repeat is refused with the first request's id.
    const earlier = retryKey ? this.accepted.get(retryKey) : undefined;
    if (earlier) {
      return record(
        409,
        { message: "The retry key is already accepted", sentMessages: [] },
        { "x-line-accepted-request-id": earlier },
      );
    }
    const push = body as { to: string; messages: Record<string, unknown>[] };
    const requestId = randomUUID();
    if (retryKey) this.accepted.set(retryKey, requestId);
    this.received.push({
      to: push.to,
      messages: push.messages,
      retryKey,
      requestId,
      at: this.options.now?.() ?? new Date(),
    });
    return record(
      200,
      { sentMessages: push.messages.map((_, i) => ({ id: `${Date.now()}${i}` })) },
      { "x-line-request-id": requestId },
    );
  }

  private authorized(value: string | null) {
    const expected = Buffer.from(`Bearer ${this.options.accessToken}`);
    const given = Buffer.from(value ?? "");
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}

/** LINE's own checks on a push, as far as we send (text messages). */
function pushProblem(body: unknown): { property: string; message: string } | null {
  if (!body || typeof body !== "object") return { property: "", message: "Must be an object" };
  const push = body as Record<string, unknown>;
  if (typeof push.to !== "string" || !USER_ID.test(push.to)) {
    return { property: "to", message: "The property, 'to', in the request body is invalid" };
  }
  const messages = push.messages;
  if (!Array.isArray(messages) || messages.length === 0 || messages.length > MAX_MESSAGES) {
    return { property: "messages", message: "Size must be between 1 and 5" };
  }
  for (const [i, message] of messages.entries()) {
    const m = message as Record<string, unknown> | null;
    if (!m || typeof m.type !== "string") {
      return { property: `messages[${i}].type`, message: "Must be one of the following values" };
    }
    if (
      m.type === "text" &&
      (typeof m.text !== "string" || m.text.length === 0 || m.text.length > MAX_TEXT)
    ) {
      return { property: `messages[${i}].text`, message: "Length must be between 1 and 5000" };
    }
  }
  return null;
}

function header(request: IncomingMessage, name: string): string | null {
  const value = request.headers[name];
  return typeof value === "string" ? value : null;
}

async function readBody(request: IncomingMessage): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return null;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function answer(
  response: ServerResponse,
  status: number,
  payload: unknown,
  headers: Record<string, string> = {},
) {
  response.writeHead(status, { "content-type": "application/json", ...headers });
  response.end(JSON.stringify(payload));
}
