import { createHmac, randomBytes } from "node:crypto";
import type { APIRequestContext } from "@playwright/test";
import { DEV_LINE_CHANNEL_SECRET } from "../../server/line/line-channel.server";
import { expect } from "./fixtures";

/**
 * LINE's follow event for `lineUserId`, posted to the inbound webhook signed
 * as LINE signs it (the development channel's secret, the fake's): the LINE
 * user has added the official account as a friend. A browser test cannot
 * add a friend on LINE itself.
 */
export async function followOfficialAccount(request: APIRequestContext, lineUserId: string) {
  const body = JSON.stringify({
    destination: "Ubot",
    events: [
      {
        type: "follow",
        timestamp: Date.now(),
        mode: "active",
        webhookEventId: randomBytes(8).toString("hex"),
        deliveryContext: { isRedelivery: false },
        source: { type: "user", userId: lineUserId },
        replyToken: "e2e",
        follow: { isUnblocked: false },
      },
    ],
  });
  const signature = createHmac("sha256", DEV_LINE_CHANNEL_SECRET).update(body).digest("base64");
  const followed = await request.post("/api/line/webhook", {
    data: body,
    headers: { "content-type": "application/json", "x-line-signature": signature },
  });
  expect(followed.status(), await followed.text()).toBe(200);
}
