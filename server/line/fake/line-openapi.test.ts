import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LineSdkTypes, lineSdkEndpoints } from "../../../tests/support/line-sdk-types";
import type { BookingMailDetails } from "../../mail/booking-templates";
import { type LineChannel, startFakeLine } from "../line-channel.server";
import {
  type LineMessage,
  lineBookingMessages,
  lineMovedMessages,
  lineReviewRequestMessages,
  lineWaitlistOfferMessages,
} from "../line-templates";
import type { FakeLine } from "./fake-line.server";

/**
 * The fake must not drift into an API that does not exist (issue 41 §1).
 * LINE's published OpenAPI description is what `@line/bot-sdk` is generated
 * from: its client (method and path of every endpoint) and its model types
 * (every body field) are that description as of the SDK we ship. This test
 * pushes every template through the adapter to the fake, then checks each
 * request it sent (method, path, the push's fields and each message's)
 * against them, and the fake's own endpoints likewise.
 */

const booking: BookingMailDetails = {
  bookingNumber: "B-0001",
  salonName: "サロン・ド・テスト",
  salonAddress: "東京都渋谷区1-2-3",
  salonPhone: "03-1234-5678",
  timeZone: "Asia/Tokyo",
  startsAt: new Date("2026-11-23T10:00:00+09:00"),
  endsAt: new Date("2026-11-23T11:30:00+09:00"),
  menus: [
    { name: "カット", price: 4400 },
    { name: "カラー", price: 6600 },
  ],
  staffName: "山田",
  staffRequested: true,
  totalPrice: 11000,
  couponTitle: null,
  customerName: "佐藤 花子",
  customerPhone: "090-0000-0000",
  customerEmail: "hanako@example.jp",
  notes: "",
  cancellationCutoffHours: 24,
  cancelReason: "",
};
const PUBLIC_URL = "https://salon.example.jp";
const TO = `U${"0123456789abcdef".repeat(2)}`;

const everyTemplate: LineMessage[][] = [
  lineBookingMessages("confirmed", booking, PUBLIC_URL),
  lineBookingMessages(
    "confirmed",
    { ...booking, approval: "pending", approvalExpiresAt: new Date("2026-11-22T18:00:00+09:00") },
    PUBLIC_URL,
  ),
  lineBookingMessages("approved", booking, PUBLIC_URL),
  lineBookingMessages(
    "cancelled",
    { ...booking, approval: "refused", cancelReason: "満席のため" },
    PUBLIC_URL,
  ),
  lineBookingMessages("cancelled", { ...booking, cancelledBySalon: true }, PUBLIC_URL),
  lineBookingMessages("cancelled", booking, PUBLIC_URL),
  lineBookingMessages("reminder", booking, PUBLIC_URL),
  lineMovedMessages(
    "salon",
    booking,
    {
      startsAt: new Date("2026-11-22T10:00:00+09:00"),
      endsAt: new Date("2026-11-22T11:30:00+09:00"),
      staffName: "鈴木",
      menuNames: ["カット"],
    },
    PUBLIC_URL,
  ),
  lineMovedMessages("customer", booking, null, PUBLIC_URL),
  lineWaitlistOfferMessages({
    to: "hanako@example.jp",
    customerName: "佐藤 花子",
    salonName: booking.salonName,
    timeZone: "Asia/Tokyo",
    startsAt: booking.startsAt,
    endsAt: booking.endsAt,
    staffName: "山田",
    staffRequested: false,
    menus: booking.menus,
    totalPrice: 11000,
    expiresAt: new Date("2026-11-20T12:30:00+09:00"),
    offerUrl: `${PUBLIC_URL}/account/waitlist/offers/o1`,
  }),
  lineReviewRequestMessages({
    to: "hanako@example.jp",
    customerName: "佐藤 花子",
    salonName: booking.salonName,
    timeZone: "Asia/Tokyo",
    startsAt: booking.startsAt,
    endsAt: booking.endsAt,
    menus: ["カット"],
    staffName: "山田",
    reviewUrl: `${PUBLIC_URL}/account/reviews/b1`,
    lastDay: "2026-12-23",
  }),
];

const types = new LineSdkTypes();
let fake: FakeLine;
let channel: LineChannel;
let apiUrl: string;

beforeAll(async () => {
  ({ fake, channel, apiUrl } = await startFakeLine());
  for (const [i, messages] of everyTemplate.entries()) {
    const retryKey = `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`;
    expect(await channel.push({ to: TO, messages, retryKey })).toEqual({ kind: "sent" });
  }
  // And the fake's other endpoints, as the SDK calls them.
  const headers = { authorization: "Bearer salon-navi-development-line-access-token" };
  await fetch(`${apiUrl}/v2/bot/message/quota`, { headers });
  await fetch(`${apiUrl}/v2/bot/message/quota/consumption`, { headers });
});

afterAll(async () => {
  await channel.close();
});

describe("the fake LINE against the Messaging API's description (@line/bot-sdk's generated client and types)", () => {
  it("was sent only endpoints that exist", () => {
    const endpoints = lineSdkEndpoints();
    expect(endpoints.size).toBeGreaterThan(50);
    const sent = new Set(fake.requests.map((r) => `${r.method} ${r.path}`));
    expect([...sent].filter((e) => !endpoints.has(e))).toEqual([]);
    expect([...sent].sort()).toEqual([
      "GET /v2/bot/message/quota",
      "GET /v2/bot/message/quota/consumption",
      "POST /v2/bot/message/push",
    ]);
  });

  it("was sent push bodies with only PushMessageRequest's fields, and messages of the API's types", () => {
    const messageTypes = types.discriminants("Message");
    expect(messageTypes.text).toBe("TextMessage");
    const pushes = fake.requests.filter((r) => r.path === "/v2/bot/message/push");
    expect(pushes).toHaveLength(everyTemplate.length);
    const problems = pushes.flatMap((request) => {
      const body = request.body as Record<string, unknown>;
      const messages = (body.messages ?? []) as Record<string, unknown>[];
      return [
        ...types.shapeProblems("PushMessageRequest", body),
        ...messages.flatMap((message) => {
          const type = messageTypes[String(message.type)];
          return type
            ? types.shapeProblems(type, message)
            : [`${String(message.type)} is not a message type`];
        }),
      ];
    });
    expect(problems).toEqual([]);
    // Every push carried a retry key, and LINE's text limit holds.
    expect(pushes.every((r) => r.retryKey)).toBe(true);
    for (const push of fake.received) {
      for (const message of push.messages) expect(String(message.text).length).toBeLessThan(5000);
    }
  });

  it("answers as the API's types say: PushMessageResponse, MessageQuotaResponse, QuotaConsumptionResponse", async () => {
    const headers = {
      authorization: "Bearer salon-navi-development-line-access-token",
      "content-type": "application/json",
    };
    const push = await fetch(`${apiUrl}/v2/bot/message/push`, {
      method: "POST",
      headers,
      body: JSON.stringify({ to: TO, messages: [{ type: "text", text: "こんにちは" }] }),
    });
    expect(push.status).toBe(200);
    const answer = (await push.json()) as { sentMessages: Record<string, unknown>[] };
    expect(types.shapeProblems("PushMessageResponse", answer)).toEqual([]);
    for (const sent of answer.sentMessages) {
      expect(types.shapeProblems("SentMessage", sent)).toEqual([]);
    }
    const quota = await (await fetch(`${apiUrl}/v2/bot/message/quota`, { headers })).json();
    expect(types.shapeProblems("MessageQuotaResponse", quota as Record<string, unknown>)).toEqual(
      [],
    );
    const used = await (
      await fetch(`${apiUrl}/v2/bot/message/quota/consumption`, { headers })
    ).json();
    expect(
      types.shapeProblems("QuotaConsumptionResponse", used as Record<string, unknown>),
    ).toEqual([]);
  });

  it("keeps LINE's rules: the bearer token, a UUID retry key, 409 on a repeated key", async () => {
    const body = JSON.stringify({ to: TO, messages: [{ type: "text", text: "一度だけ" }] });
    const send = (headers: Record<string, string>) =>
      fetch(`${apiUrl}/v2/bot/message/push`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body,
      });
    const auth = { authorization: "Bearer salon-navi-development-line-access-token" };
    expect((await send({ authorization: "Bearer wrong" })).status).toBe(401);
    expect((await send({ ...auth, "x-line-retry-key": "not-a-uuid" })).status).toBe(400);
    const key = "11111111-2222-4333-8444-555555555555";
    const first = await send({ ...auth, "x-line-retry-key": key });
    expect(first.status).toBe(200);
    const again = await send({ ...auth, "x-line-retry-key": key });
    expect(again.status).toBe(409);
    expect(again.headers.get("x-line-accepted-request-id")).toBe(
      first.headers.get("x-line-request-id"),
    );
    expect(fake.received.filter((p) => p.messages[0]?.text === "一度だけ")).toHaveLength(1);
  });

  it("catches a field the API does not have (the check can fail)", () => {
    expect(
      types.shapeProblems("PushMessageRequest", { to: TO, messages: [], retryKey: "x" }),
    ).toEqual(["retryKey is not a field of PushMessageRequest"]);
    expect(types.shapeProblems("TextMessage", { type: "text", body: "x" })).toEqual([
      "body is not a field of TextMessage",
      "text is missing (TextMessage)",
    ]);
  });

  it("writes the booking's date, time, menus and total as the mails do", () => {
    const [confirmed] = everyTemplate[0] ?? [];
    expect(confirmed?.text).toContain("ご予約が確定しました（サロン・ド・テスト）");
    expect(confirmed?.text).toContain("日時：2026年11月23日(月) 10:00〜11:30");
    expect(confirmed?.text).toContain("メニュー：カット（4,400円）、カラー（6,600円）");
    expect(confirmed?.text).toContain("合計金額：11,000円（税込）");
    expect(confirmed?.text).toContain(`${PUBLIC_URL}/account/history`);
    const offer = everyTemplate[9]?.[0];
    expect(offer?.text).toContain("確保の期限：2026年11月20日(金) 12:30");
    const refused = everyTemplate[3]?.[0];
    expect(refused?.text).toContain("ご予約をお受けできませんでした");
    expect(refused?.text).toContain("満席のため");
  });
});
