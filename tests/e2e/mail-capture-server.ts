import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { pathToFileURL } from "node:url";
import { SMTPServer } from "smtp-server";
import { type ParsedMail, parseMail } from "../support/mail-message";

/**
 * The SMTP server the e2e app sends to (playwright.config.ts starts it before
 * the app, which gets SMTP_URL pointing here): every mail a test reads
 * went through the app's real delivery path, outbox → nodemailer → SMTP.
 * Mails stay in memory and are served as JSON for tests/support/mail-capture.ts:
 *
 *   GET /mails?to=<address>  → CapturedMail[], oldest first (newest last)
 *   GET /healthz             → 200 once both servers listen
 */
export type CapturedMail = ParsedMail & {
  /** The envelope recipients (RCPT TO), lowercased. */
  recipients: string[];
  receivedAt: string;
};

export async function startMailCapture({
  smtpPort = 0,
  httpPort = 0,
  host = "127.0.0.1",
}: {
  smtpPort?: number;
  httpPort?: number;
  host?: string;
} = {}) {
  const mails: CapturedMail[] = [];

  const smtp = new SMTPServer({
    // Local and plain, as the app's smtp:// URL asks: no TLS, no login.
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    size: 10 * 1024 * 1024,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        try {
          mails.push({
            ...parseMail(Buffer.concat(chunks)),
            recipients: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
            receivedAt: new Date().toISOString(),
          });
          callback();
        } catch (error) {
          // Refused, the app keeps the mail queued and logs the failure: a
          // test waiting for it fails on its timeout instead of reading half a mail.
          console.error("mail-capture: unreadable message", error);
          callback(error instanceof Error ? error : new Error(String(error)));
        }
      });
    },
  });

  const http = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://localhost");
    const reply = (status: number, body: unknown) => {
      response.writeHead(status, { "content-type": "application/json; charset=utf-8" });
      response.end(JSON.stringify(body));
    };
    if (request.method !== "GET") return reply(405, { error: "method not allowed" });
    if (url.pathname === "/healthz") return reply(200, { ok: true, mails: mails.length });
    if (url.pathname === "/mails") {
      const to = url.searchParams.get("to")?.trim().toLowerCase();
      return reply(200, to ? mails.filter((mail) => mail.recipients.includes(to)) : mails);
    }
    reply(404, { error: "not found" });
  });

  smtp.listen(smtpPort, host);
  http.listen(httpPort, host);
  await Promise.all([once(smtp.server, "listening"), once(http, "listening")]);

  return {
    smtpPort: (smtp.server.address() as AddressInfo).port,
    httpPort: (http.address() as AddressInfo).port,
    async close() {
      http.closeAllConnections();
      await Promise.all([
        new Promise<void>((resolve) => smtp.close(() => resolve())),
        new Promise<void>((resolve) => http.close(() => resolve())),
      ]);
    },
  };
}

// Run directly (playwright.config.ts): ports from the environment.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const port = (name: string) => {
    const value = Number(process.env[name]);
    if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a port number`);
    return value;
  };
  const capture = await startMailCapture({
    smtpPort: port("MAIL_CAPTURE_SMTP_PORT"),
    httpPort: port("MAIL_CAPTURE_HTTP_PORT"),
  });
  console.log(`mail-capture: SMTP on ${capture.smtpPort}, HTTP on ${capture.httpPort}`);
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      capture.close().finally(() => process.exit(0));
    });
  }
}
