import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMailer } from "../../server/mail/mailer";
import { createRouterApp } from "../support/router-app";
import { withTestDatabase } from "../support/test-database";

const database = withTestDatabase();
let site: Awaited<ReturnType<typeof createRouterApp>>;
beforeAll(async () => {
  site = await createRouterApp(database);
});
afterAll(async () => {
  await site?.close();
});

describe("/dev/mailbox", () => {
  it("lists a queued mail and offers its attachment as a download", async () => {
    const ics = "BEGIN:VCALENDAR\r\nMETHOD:REQUEST\r\nEND:VCALENDAR\r\n";
    await createMailer(database.db, { from: "test@example.jp" }).send({
      to: "mailbox@example.jp",
      subject: "【Salon Navi】ご予約が確定しました",
      text: "本文",
      html: "<p>本文</p>",
      attachments: [
        {
          filename: "booking.ics",
          contentType: "text/calendar; charset=utf-8; method=REQUEST",
          content: ics,
        },
      ],
    });
    const response = await site.app.request("http://localhost:3000/dev/mailbox");
    expect(response.status).toBe(200);
    const html = await response.text();
    // Without SMTP_URL nothing sends the mail: the queued row is listed here.
    expect(html).toContain("【Salon Navi】ご予約が確定しました");
    expect(html).toContain("宛先：<!-- -->mailbox@example.jp");
    expect(html).toContain("添付ファイル：<!-- -->booking.ics");
    expect(html).toContain(
      `href="data:text/calendar;charset=utf-8,${encodeURIComponent(ics)}" download="booking.ics"`,
    );
  });
});
