import ICAL from "ical.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../server/logger";
import { createMailer, outboxSender } from "../../server/mail/mailer";
import { renderMail } from "../../server/mail/templates";
import { type CapturedMail, startMailCapture } from "../e2e/mail-capture-server";
import { withTestDatabase } from "../support/test-database";

/**
 * The e2e suite reads every mail from tests/e2e/mail-capture-server.ts; here
 * mails take the app's own path to it (outbox → outboxSender → nodemailer →
 * SMTP) and are read back through its JSON API, as the e2e helpers do.
 */
const database = withTestDatabase();
let capture: Awaited<ReturnType<typeof startMailCapture>>;
beforeAll(async () => {
  capture = await startMailCapture();
});
afterAll(async () => {
  await capture?.close();
});

const mailsTo = async (to: string): Promise<CapturedMail[]> => {
  const response = await fetch(
    `http://127.0.0.1:${capture.httpPort}/mails?to=${encodeURIComponent(to)}`,
  );
  expect(response.status).toBe(200);
  return response.json();
};

async function deliver() {
  const sender = outboxSender({
    database,
    smtpUrl: `smtp://127.0.0.1:${capture.smtpPort}`,
    log: createLogger("silent"),
  });
  try {
    while ((await sender.deliverPending()) > 0) {}
  } finally {
    sender.close();
  }
}

describe("mail capture", () => {
  it("reads back a Japanese subject, the text and HTML parts, the link and an .ics attachment", async () => {
    const to = "Owner@Example.jp";
    const url = "https://salon.example.jp/owner-invitation?token=a+b/c&next=%2Fadmin";
    const ics = [
      "BEGIN:VCALENDAR",
      "METHOD:REQUEST",
      "BEGIN:VEVENT",
      "UID:booking-1@salon.example.jp",
      // Longer than a line of base64, in Japanese: decoding must join the lines.
      `SUMMARY:${"サロン ナビ 表参道店でのご予約".repeat(4)}`,
      "END:VEVENT",
      "END:VCALENDAR",
      "",
    ].join("\r\n");
    const mail = renderMail("ownerInvitation", to, url);
    await createMailer(database.db, { from: "Salon Navi <no-reply@salon.example.jp>" }).send({
      ...mail,
      // Long enough that nodemailer folds it into several encoded words.
      subject: `${mail.subject}（山田 花子 様、表参道のサロン「美容室ナビ」）`,
      attachments: [
        {
          filename: "予約-ABCD.ics",
          contentType: "text/calendar; charset=utf-8; method=REQUEST",
          content: ics,
        },
      ],
    });
    await createMailer(database.db, { from: "Salon Navi <no-reply@salon.example.jp>" }).send(
      renderMail("magicLink", "someone-else@example.jp", "https://salon.example.jp/other"),
    );
    await deliver();

    // Addresses match whatever their case; other recipients' mails are not listed.
    const [received, ...others] = await mailsTo("owner@example.jp");
    expect(others).toEqual([]);
    expect(received?.recipients).toEqual(["owner@example.jp"]);
    expect(received?.from).toBe("Salon Navi <no-reply@salon.example.jp>");
    expect(received?.subject).toBe(
      "【Salon Navi】サロンオーナーとしてのご招待（山田 花子 様、表参道のサロン「美容室ナビ」）",
    );
    expect(received?.text).toBe(mail.text);
    expect(received?.html).toBe(mail.html);
    // The HTML writes & as a character reference; the link is the URL itself.
    expect(mail.html).toContain("&#38;next=");
    expect(received?.links).toEqual([url]);
    expect(received?.attachments).toHaveLength(1);
    const [file] = received?.attachments ?? [];
    expect(file?.filename).toBe("予約-ABCD.ics");
    expect(file?.contentType).toBe("text/calendar");
    expect(file?.content).toBe(ics);
    const event = new ICAL.Component(ICAL.parse(file?.content ?? "")).getFirstSubcomponent(
      "vevent",
    );
    expect(event?.getFirstPropertyValue("uid")).toBe("booking-1@salon.example.jp");

    expect((await mailsTo("someone-else@example.jp")).map((m) => m.links)).toEqual([
      ["https://salon.example.jp/other"],
    ]);
    expect(await mailsTo("nobody@example.jp")).toEqual([]);
  });
});
