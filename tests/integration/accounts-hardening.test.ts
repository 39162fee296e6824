import { once } from "node:events";
import { eq } from "drizzle-orm";
import { SMTPServer } from "smtp-server";
import { beforeAll, describe, expect, it } from "vitest";
import type { AuthError } from "../../server/accounts/auth-error";
import {
  changePassword,
  requestPasswordReset,
  signInWithPassword,
} from "../../server/accounts/identity";
import { databaseRateLimitStore } from "../../server/accounts/rate-limit";
import { ContactLimitError, submitContactMessage } from "../../server/content/contact";
import { rateLimits, users } from "../../server/db/schema";
import { createLogger } from "../../server/logger";
import { startMailDelivery } from "../../server/mail/mailer";
import {
  browser,
  createAccountsApp,
  lastMailLink,
  nextIp,
  ORIGIN,
  outboxFor,
  setRole,
  uniqueEmail,
} from "../support/accounts";
import { withTestDatabase } from "../support/test-database";

const database = withTestDatabase();
let env: ReturnType<typeof createAccountsApp>;

beforeAll(async () => {
  env = createAccountsApp(database, { PASSWORD_REQUIRE_NUMERIC: "true" });
});

type App = ReturnType<typeof createAccountsApp>["app"];

/** A JSON call to Better Auth's API from a fresh address (or the given browser). */
async function api(
  path: string,
  body: unknown,
  b: ReturnType<typeof browser> = browser(env.app),
): Promise<Response> {
  return b.request(`/api/auth${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

async function signedUpVia(app: App) {
  const email = uniqueEmail("hard");
  const password = "secret12";
  const b = browser(app);
  const response = await b.request("/api/auth/sign-up/email", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password, name: "" }),
  });
  expect(response.status).toBe(200);
  // The verification link signs in without a password attempt on the account.
  await b.request(await lastMailLink(database.db, email));
  return { email, password, b };
}

describe("mail links follow the configured public origin", () => {
  it("uses http://localhost:PORT when PUBLIC_URL is unset, and keeps the redirect on the site", async () => {
    const onPort = createAccountsApp(database, { PUBLIC_URL: "", PORT: "4000" });
    expect(onPort.config.PUBLIC_URL).toBe("http://localhost:4000");
    const email = uniqueEmail("port");
    const response = await onPort.app.request("http://localhost:4000/api/auth/sign-up/email", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        origin: "http://localhost:4000",
        "x-forwarded-for": nextIp(),
      },
      body: JSON.stringify({
        email,
        password: "secret12",
        name: "",
        callbackURL: "/finish_sign_up?verified=1",
      }),
    });
    expect(response.status).toBe(200);
    const [mail] = await outboxFor(database.db, email);
    expect(mail?.text).toContain("http://localhost:4000/api/auth/verify-email?token=");
    expect(mail?.text).not.toContain("localhost:3000");
    const link = await lastMailLink(database.db, email);
    const verified = await onPort.app.request(`http://localhost:4000${link}`, {
      headers: { "x-forwarded-for": nextIp() },
    });
    const location = verified.headers.get("location") ?? "";
    expect(new URL(location, "http://localhost:4000").origin).toBe("http://localhost:4000");
  });

  it("uses a configured PUBLIC_URL", async () => {
    const hosted = createAccountsApp(database, { PUBLIC_URL: "https://salon.example.jp/" });
    const request = new Request("https://salon.example.jp/password-reset", {
      headers: { "x-client-ip": nextIp() },
    });
    const { email: known } = await signedUpVia(env.app);
    await requestPasswordReset(hosted.accounts, { email: known }, request);
    const mails = await outboxFor(database.db, known);
    expect(mails.at(-1)?.text).toContain("https://salon.example.jp/api/auth/reset-password/");
  });
});

describe("one limiter for the forms and /api/auth", () => {
  it("stops wrong passwords on one account from many addresses through the API", async () => {
    const { email } = await signedUpVia(env.app);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push((await api("/sign-in/email", { email, password: "wrong-pass1" })).status);
    }
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses[5]).toBe(429);
    const body = (await (await api("/sign-in/email", { email, password: "x1" })).json()) as {
      error: { code: string; message: string };
    };
    expect(body.error.code).toBe("TOO_MANY_REQUESTS");
    expect(body.error.message).toContain("しばらく待って");
  });

  it("counts form and API attempts on one account together, whatever the address's case", async () => {
    const { email, password } = await signedUpVia(env.app);
    for (let i = 0; i < 3; i++) {
      await signInWithPassword(
        env.accounts,
        { email, password: "wrong-pass1" },
        browser(env.app).toRequest("/signin"),
      ).catch(() => undefined);
    }
    for (let i = 0; i < 2; i++) {
      await api("/sign-in/email", { email: email.toUpperCase(), password: "wrong-pass1" });
    }
    // The right password, now, from a new address: the account is resting.
    expect((await api("/sign-in/email", { email, password })).status).toBe(429);
    const form = await signInWithPassword(
      env.accounts,
      { email, password },
      browser(env.app).toRequest("/signin"),
    ).catch((error: AuthError) => error.code);
    expect(form).toBe("too-many-requests");
  });

  it("limits verify-password on the signed-in account, from any address", async () => {
    const { b } = await signedUpVia(env.app);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      // A new address each time: only the per-account count can stop this.
      const other = browser(env.app);
      other.jar.store(
        new Headers([["set-cookie", `${b.jar.header().split("; ")[0] ?? ""}; Path=/`]]),
      );
      statuses.push((await api("/verify-password", { password: "wrong-pass1" }, other)).status);
    }
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.slice(0, 5)).not.toContain(429);
  });

  it("limits mails asked for one address through the API, registered or not", async () => {
    const stranger = uniqueEmail("stranger");
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push((await api("/sign-in/magic-link", { email: stranger })).status);
    }
    expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(statuses[5]).toBe(429);
    expect(await outboxFor(database.db, stranger)).toHaveLength(5);
  });

  it("limits mails to one recipient in the mailer itself, whatever path asks", async () => {
    const to = uniqueEmail("recipient");
    const mail = { subject: "件名", text: "本文", html: "<p>本文</p>" };
    for (let i = 0; i < 7; i++) {
      await env.accounts.mailer.send({ ...mail, to: i % 2 ? to.toUpperCase() : to });
    }
    const stored = await database.db.query.mailOutbox.findMany({
      where: (t, { ilike }) => ilike(t.to, to),
    });
    expect(stored).toHaveLength(5);
  });

  it("refuses redirect targets off the site on /api/auth", async () => {
    const hostile = [
      "//evil.example",
      "/\\evil.example",
      "/%09/evil.example",
      "https://evil.example",
    ];
    for (const callbackURL of hostile) {
      const viaBody = await api("/sign-in/magic-link", { email: uniqueEmail(), callbackURL });
      expect(viaBody.status).toBe(400);
      const viaQuery = await browser(env.app).request(
        `/api/auth/verify-email?token=x&callbackURL=${encodeURIComponent(callbackURL)}`,
      );
      expect(viaQuery.status).toBe(400);
      expect(viaQuery.headers.get("location")).toBeNull();
    }
  });
});

describe("the password policy on every /api/auth path that sets a password", () => {
  it("refuses a password without a digit at sign-up, reset and change", async () => {
    const signUp = await api("/sign-up/email", {
      email: uniqueEmail(),
      password: "nodigits",
      name: "",
    });
    expect(signUp.status).toBe(400);

    const { email, password, b } = await signedUpVia(env.app);
    const change = await api(
      "/change-password",
      { currentPassword: password, newPassword: "nodigits" },
      b,
    );
    expect(change.status).toBe(400);

    expect(
      (await api("/request-password-reset", { email, redirectTo: "/password-reset" })).status,
    ).toBe(200);
    const landing = await b.request(await lastMailLink(database.db, email));
    const token =
      new URL(landing.headers.get("location") ?? "", ORIGIN).searchParams.get("token") ?? "";
    expect(token).not.toBe("");
    const reset = await api("/reset-password", { token, newPassword: "nodigits" });
    expect(reset.status).toBe(400);
    expect((await api("/reset-password", { token, newPassword: "digits12" })).status).toBe(200);
  });

  it("refuses it on the change-password form and on the admin's set-user-password", async () => {
    const { email, password, b } = await signedUpVia(env.app);
    const form = await changePassword(
      env.accounts,
      { currentPassword: password, newPassword: "nodigits" },
      b.toRequest("/account/edit/change-password"),
    ).catch((error: AuthError) => error.code);
    expect(form).toBe("password-does-not-meet-requirements");

    const admin = await signedUpVia(env.app);
    await setRole(database.db, admin.email, "admin");
    const [user] = await database.db.select().from(users).where(eq(users.email, email));
    const set = await api(
      "/admin/set-user-password",
      { userId: user?.id, newPassword: "nodigits" },
      admin.b,
    );
    expect(set.status).toBe(400);
    const created = await api(
      "/admin/create-user",
      { email: uniqueEmail("made"), password: "nodigits", name: "作成" },
      admin.b,
    );
    expect(created.status).toBe(400);
  });
});

describe("contact form", () => {
  it("is limited per client address", async () => {
    const limits = { ...env.accounts.limits, perIp: 2 };
    const input = {
      name: "山田",
      email: "a@example.jp",
      category: "other",
      body: "お問い合わせの本文です。",
    } as Parameters<typeof submitContactMessage>[2];
    const from = { ip: nextIp(), userAgent: "test" };
    await submitContactMessage(database.db, limits, input, from);
    await submitContactMessage(database.db, limits, input, from);
    await expect(submitContactMessage(database.db, limits, input, from)).rejects.toBeInstanceOf(
      ContactLimitError,
    );
    await submitContactMessage(database.db, limits, input, { ...from, ip: nextIp() });
  });
});

describe("rate-limit counters", () => {
  it("deletes expired rows as it writes", async () => {
    let now = new Date("2030-01-01T00:00:00Z");
    const store = databaseRateLimitStore(database.db, () => now);
    const rule = { window: 60, max: 5 };
    await store.consume("cleanup:old", rule);
    const keys = async () =>
      (await database.db.select().from(rateLimits))
        .map((row) => row.key)
        .filter((key) => key.startsWith("cleanup:"));
    expect(await keys()).toEqual(["cleanup:old"]);
    now = new Date(now.getTime() + 10 * 60_000);
    await store.consume("cleanup:new", rule);
    expect(await keys()).toEqual(["cleanup:new"]);
  });
});

describe("mail leaves through the outbox", () => {
  it("answers a reset request with SMTP down and keeps the mail queued", async () => {
    const down = createAccountsApp(database, { SMTP_URL: "smtp://127.0.0.1:9" });
    const { email } = await signedUpVia(down.app);
    const response = await down.app.request(`${ORIGIN}/api/auth/request-password-reset`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        origin: ORIGIN,
        "x-forwarded-for": nextIp(),
      },
      body: JSON.stringify({ email, redirectTo: "/password-reset" }),
    });
    expect(response.status).toBe(200);
    const mails = await outboxFor(database.db, email);
    expect(mails.map((m) => m.subject).some((s) => s.includes("パスワード"))).toBe(true);
    // An unknown address gets the very same answer.
    const unknown = await down.app.request(`${ORIGIN}/api/auth/request-password-reset`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        origin: ORIGIN,
        "x-forwarded-for": nextIp(),
      },
      body: JSON.stringify({ email: uniqueEmail("unknown"), redirectTo: "/password-reset" }),
    });
    expect(unknown.status).toBe(200);
    expect(await unknown.text()).toBe(await response.text());
  });

  it("delivers a reset for a known address through the background loop", async () => {
    const received: string[] = [];
    let target = "";
    let arrived: () => void = () => undefined;
    const delivered = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      onData(stream, session, callback) {
        stream.resume();
        stream.on("end", () => {
          received.push(session.envelope.rcptTo.map((r) => r.address).join(","));
          callback();
          // The sign-up verification mail, then the reset mail.
          if (received.filter((to) => to === target).length === 2) arrived();
        });
      },
    });
    server.listen(0, "127.0.0.1");
    await once(server.server, "listening");
    const { port } = server.server.address() as { port: number };
    const smtpUrl = `smtp://127.0.0.1:${port}`;
    const withSmtp = createAccountsApp(database, { SMTP_URL: smtpUrl });
    const { email } = await signedUpVia(withSmtp.app);
    target = email;
    const delivery = startMailDelivery({
      database,
      smtpUrl,
      log: createLogger("silent"),
      intervalMs: 20,
    });
    try {
      const response = await withSmtp.app.request(`${ORIGIN}/api/auth/request-password-reset`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          origin: ORIGIN,
          "x-forwarded-for": nextIp(),
        },
        body: JSON.stringify({ email, redirectTo: "/password-reset" }),
      });
      expect(response.status).toBe(200);
      await delivered;
      // Stopping waits for the batch in progress, which deletes what it sent.
      await delivery.stop();
      expect(received).toContain(email);
      expect(await outboxFor(database.db, email)).toHaveLength(0);
    } finally {
      await delivery.stop();
      server.close();
    }
  });
});
