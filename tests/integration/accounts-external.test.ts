import { once } from "node:events";
import { Events, OAuth2Server } from "oauth2-mock-server";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getCurrentUser } from "../../server/accounts/current-user";
import { signUpWithPassword, startExternalSignIn } from "../../server/accounts/identity";
import { createLogger } from "../../server/logger";
import { outboxSender } from "../../server/mail/mailer";
import { browser, createAccountsApp, outboxFor, uniqueEmail } from "../support/accounts";
import { withTestDatabase } from "../support/test-database";

const database = withTestDatabase();

describe("mail over SMTP", () => {
  it("sends the Japanese verification mail with text and HTML parts when SMTP_URL is set", async () => {
    const received: string[] = [];
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      onData(stream, _session, callback) {
        let raw = "";
        stream.on("data", (chunk) => {
          raw += chunk;
        });
        stream.on("end", () => {
          received.push(raw);
          callback();
        });
      },
    });
    server.listen(0, "127.0.0.1");
    await once(server.server, "listening");
    const { port } = server.server.address() as { port: number };
    try {
      const env = createAccountsApp(database, { SMTP_URL: `smtp://127.0.0.1:${port}` });
      const email = uniqueEmail("smtp");
      await signUpWithPassword(
        env.accounts,
        { email, password: "secret1" },
        browser(env.app).toRequest("/signup"),
      );
      // The request only queued it; the background sender delivers it.
      expect(received).toHaveLength(0);
      expect(await outboxFor(database.db, email)).toHaveLength(1);
      const sender = outboxSender({
        database,
        smtpUrl: `smtp://127.0.0.1:${port}`,
        log: createLogger("silent"),
      });
      expect(await sender.deliverPending()).toBe(1);
      sender.close();
      expect(received).toHaveLength(1);
      const raw = received[0] ?? "";
      expect(raw).toContain("multipart/alternative");
      expect(raw).toMatch(/Content-Type: text\/plain/i);
      expect(raw).toMatch(/Content-Type: text\/html/i);
      expect(await outboxFor(database.db, email)).toHaveLength(0);
      expect(decodeSubject(raw)).toBe("【Salon Navi】メールアドレスの確認をお願いします");
      expect(decodeTextPart(raw)).toContain("/api/auth/verify-email?token=");
    } finally {
      server.close();
    }
  });
});

describe("external sign-in (OpenID Connect)", () => {
  let provider: OAuth2Server;

  beforeAll(async () => {
    provider = new OAuth2Server();
    await provider.issuer.keys.generate("RS256");
    await provider.start(0, "localhost");
    const profile = { email: "oidc-user@example.jp", email_verified: true, name: "外部 太郎" };
    provider.service.on(Events.BeforeTokenSigning, (token) => {
      Object.assign(token.payload, profile);
    });
    provider.service.on(Events.BeforeUserinfo, (response) => {
      Object.assign(response.body, profile);
    });
  });
  afterAll(async () => {
    await provider?.stop();
  });

  it("hides providers without configuration", () => {
    const env = createAccountsApp(database, { GOOGLE_CLIENT_ID: "only-id" });
    expect(env.accounts.providers).toEqual([]);
  });

  it("signs in through the provider's authorization and our callback", async () => {
    const issuer = provider.issuer.url ?? "";
    const env = createAccountsApp(database, {
      GOOGLE_CLIENT_ID: "salon-navi",
      GOOGLE_CLIENT_SECRET: "client-secret",
      GOOGLE_ISSUER: issuer,
    });
    expect(env.accounts.providers).toEqual(["google"]);
    const b = browser(env.app);
    const { url, headers } = await startExternalSignIn(
      env.accounts,
      "google",
      b.toRequest("/signin"),
    );
    b.keep(headers);
    expect(url.startsWith(issuer)).toBe(true);

    const authorize = await fetch(url, { redirect: "manual" });
    const callback = new URL(authorize.headers.get("location") ?? "");
    expect(callback.pathname).toBe("/api/auth/callback/google");

    const landing = await b.request(`${callback.pathname}${callback.search}`);
    expect(landing.status).toBe(302);
    expect(landing.headers.get("location")).toMatch(/\/account\/edit$/);
    const user = await getCurrentUser(b.toRequest("/"), {
      db: database.db,
      accounts: env.accounts,
    });
    expect(user).toMatchObject({ email: "oidc-user@example.jp", emailVerified: true });
  });
});

/** The Subject header with its RFC 2047 encoded words decoded. */
function decodeSubject(raw: string) {
  const header = raw.match(/^Subject: (.*(?:\r?\n[ \t].*)*)/m)?.[1] ?? "";
  return header
    .replace(/\r?\n[ \t]/g, " ")
    .replace(/=\?utf-8\?([bq])\?([^?]*)\?=\s*/gi, (_all, kind: string, text: string) =>
      kind.toLowerCase() === "b"
        ? Buffer.from(text, "base64").toString("utf8")
        : decodeQuotedPrintable(text.replaceAll("_", " ")),
    )
    .trim();
}

/** The body of the text/plain part, decoded from its transfer encoding. */
function decodeTextPart(raw: string) {
  const part = raw.split(/\r?\n--/).find((p) => /Content-Type: text\/plain/i.test(p)) ?? "";
  const [head = "", ...rest] = part.split(/\r?\n\r?\n/);
  const body = rest.join("\n\n");
  if (/Content-Transfer-Encoding: base64/i.test(head)) {
    return Buffer.from(body.replace(/\s/g, ""), "base64").toString("utf8");
  }
  return decodeQuotedPrintable(body.replace(/=\r?\n/g, ""));
}

function decodeQuotedPrintable(text: string) {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "=" && /^[0-9A-F]{2}$/i.test(text.slice(i + 1, i + 3))) {
      bytes.push(Number.parseInt(text.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(text[i] ?? ""));
    }
  }
  return Buffer.from(bytes).toString("utf8");
}
