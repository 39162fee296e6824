import { expect, type Page } from "@playwright/test";
import { MAIL_CAPTURE } from "../../playwright.config";
import type { CapturedMail } from "../e2e/mail-capture-server";

/**
 * What e2e tests read of the mails the app sent over SMTP to
 * tests/e2e/mail-capture-server.ts. The app only queues mail in the request
 * and its delivery loop sends it shortly after, so a helper polls the
 * capture server (a process outside the page) until the mail is there.
 */
const WAIT = { timeout: 15_000, intervals: [100, 250, 500] };

/** Every mail to `to`, oldest first. */
export async function mailsTo(to: string): Promise<CapturedMail[]> {
  const response = await fetch(
    `http://127.0.0.1:${MAIL_CAPTURE.httpPort}/mails?to=${encodeURIComponent(to)}`,
  );
  if (!response.ok) throw new Error(`mail capture answered ${response.status}`);
  return response.json();
}

const matching = async (to: string, subject: string) =>
  (await mailsTo(to)).filter((mail) => mail.subject.includes(subject));

/**
 * The newest mail to `to` whose subject contains `subject`, waiting for it
 * to arrive; mails sent by a background job (booking mails) wait for the job
 * worker's pass too, so their callers give a longer `timeout`.
 */
export async function newestMail(
  to: string,
  { subject, timeout = WAIT.timeout }: { subject: string; timeout?: number },
) {
  let found: CapturedMail | undefined;
  await expect
    .poll(
      async () => {
        found = (await matching(to, subject)).at(-1);
        return found !== undefined;
      },
      { ...WAIT, timeout, message: `a mail to ${to} with 「${subject}」 in its subject` },
    )
    .toBe(true);
  return found as CapturedMail;
}

/** Waits until exactly `count` mails to `to` with `subject` in the subject have arrived. */
export async function expectMailCount(to: string, subject: string, count: number) {
  await expect
    .poll(async () => (await matching(to, subject)).length, {
      ...WAIT,
      message: `mails to ${to} with 「${subject}」 in their subject`,
    })
    .toBe(count);
}

/**
 * Opens the first link of the newest mail to `to` whose subject contains
 * `subject`. The link is the HTML part's; the plain-text part must carry
 * the same URL, for readers whose mail program shows only text.
 */
export async function openMailLink(page: Page, to: string, subject: string) {
  const mail = await newestMail(to, { subject });
  const [link] = mail.links;
  if (!link) throw new Error(`the mail 「${mail.subject}」 has no link`);
  expect(mail.text).toContain(link);
  await page.goto(link);
}
