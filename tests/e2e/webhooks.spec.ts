import { once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { signIn } from "./account-helpers";
import { expect, test } from "./fixtures";
import { addStoryStylist, axeAtEveryWidth, DEMO_OWNER, enterWalkIn } from "./owner-helpers";

/**
 * 設定 → Webhook (issue 41, §2; decision 0086): the owner adds an endpoint on a
 * local receiver (the e2e server allows loopback), sees its secret once, a
 * walk-in booking reaches the receiver signed (verified with the
 * `standardwebhooks` package), and the delivery log shows it sent. The
 * endpoint is deleted at the end, so a retry starts clean. The owner is the
 * demo owner: the `login` fixture makes accounts without a salon.
 */
test("the owner adds a webhook; a booking reaches the receiver signed and the log shows it", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const received: { headers: Record<string, string>; body: string }[] = [];
  const receiver = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({
        headers: request.headers as Record<string, string>,
        body: Buffer.concat(chunks).toString(),
      });
      response.writeHead(204).end();
    });
  });
  receiver.listen(0, "127.0.0.1");
  await once(receiver, "listening");
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/salon-hook`;
  try {
    await signIn(page, DEMO_OWNER.email, DEMO_OWNER.password);
    await page.waitForURL((u) => !u.pathname.startsWith("/signin"));
    await page.goto("/owner");
    await expect(page).toHaveURL(/\/owner\/salons\/[0-9a-f-]{36}$/);
    const salonId = new URL(page.url()).pathname.split("/")[3] ?? "";

    await page.goto(`/owner/salons/${salonId}/settings`);
    await page.getByRole("link", { name: "Webhook" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Webhook" })).toBeVisible();
    // A URL that is not https is refused with a Japanese message.
    await page.getByRole("textbox", { name: /送信先URL/ }).fill("http://hooks.example.com/x");
    await page.getByRole("button", { name: "追加する" }).click();
    await expect(page.getByRole("alert")).toContainText("https://");
    await page.getByRole("textbox", { name: /送信先URL/ }).fill(url);
    await page.getByRole("button", { name: "追加する" }).click();
    const secret = (await page.getByTestId("webhook-secret").textContent()) ?? "";
    expect(secret).toMatch(/^whsec_/);
    // Shown once: the page read again does not show it.
    await page.reload();
    await expect(page.getByRole("cell", { name: new RegExp(url) })).toBeVisible();
    await expect(page.getByTestId("webhook-secret")).toHaveCount(0);
    expect(await page.content()).not.toContain(secret);

    const stylist = await addStoryStylist(page, salonId, "Webhook 担当", "うぇぶふっく たんとう");
    const bookingId = await enterWalkIn(
      page,
      salonId,
      { name: "連携 花子", kana: "レンケイ ハナコ", phone: "09055550000" },
      stylist,
    );
    await expect.poll(() => received.length, { timeout: 20_000 }).toBeGreaterThan(0);
    const [got] = received;
    const payload = new Webhook(secret).verify(got?.body ?? "", got?.headers ?? {}) as {
      type: string;
      data: { booking: { id: string } };
    };
    expect(payload.type).toBe("booking.created");
    expect(payload.data.booking.id).toBe(bookingId);

    await page.goto(`/owner/salons/${salonId}/settings/webhooks`);
    const logPath =
      (await page.getByRole("link", { name: "送信履歴" }).last().getAttribute("href")) ?? "";
    await page.goto(logPath);
    await expect(async () => {
      await page.reload();
      await expect(page.getByTestId("webhook-delivery").first()).toContainText(
        "送信済み（HTTP 204）",
        {
          timeout: 1000,
        },
      );
    }).toPass({ timeout: 15_000 });
    await expect(page.getByTestId("webhook-delivery").first()).toContainText("booking.created");
    await axeAtEveryWidth(page);

    // Deleted, so the demo salon keeps no endpoint on a closed port.
    const row = page.getByRole("row").filter({ hasText: url });
    await row.getByRole("button", { name: "削除" }).click();
    await expect(
      page.getByRole("status").filter({ hasText: "送信先を削除しました。" }),
    ).toBeVisible();
  } finally {
    receiver.close();
  }
});
