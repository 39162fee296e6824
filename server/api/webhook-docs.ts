import { z } from "@hono/zod-openapi";
import { webhookEventTypes } from "../db/schema";
import { webhookEventDescriptions, webhookPayloadSchemas } from "../webhooks/payload.schema";
import type { BookingApiApp } from "./api-deps";

const signatureHeaders = z.object({
  "webhook-id": z.string().openapi({
    description: "メッセージID。再試行・再送でも同じ値です（重複の排除に使ってください）。",
    example: "msg_2f0d4c3c8a2b4c1e9f4f0b6a7d5e3c21",
  }),
  "webhook-timestamp": z.string().openapi({
    description: "送信時刻（UNIX 秒）。5分以上ずれたものは受け付けないでください。",
    example: "1764550800",
  }),
  "webhook-signature": z.string().openapi({
    description:
      "Standard Webhooks の署名。`v1,` に続く HMAC-SHA256（Base64）を空白区切りで1つ以上（シークレット更新後24時間は2つ）。署名対象は `{webhook-id}.{webhook-timestamp}.{本文}`、鍵は `whsec_` の後ろを Base64 デコードしたもの。",
    example: "v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=",
  }),
});

/**
 * The salons' webhooks in the OpenAPI document's `webhooks` section
 * (OpenAPI 3.1; decision 0086): one entry per event, its payload and the
 * Standard Webhooks headers, and what the receiver's answers mean.
 */
export function registerWebhookDocs(app: BookingApiApp) {
  for (const type of webhookEventTypes) {
    app.openAPIRegistry.registerWebhook({
      method: "post",
      path: type,
      tags: ["Webhook（サロン向け）"],
      summary: type,
      description: `${webhookEventDescriptions[type]}。設定 → Webhook で登録した https の URL に POST します。`,
      request: {
        headers: signatureHeaders,
        body: { content: { "application/json": { schema: webhookPayloadSchemas[type] } } },
      },
      responses: {
        "200": { description: "受信しました（2xx ならどれでも）。" },
        "410": {
          description:
            "この送信先は使われていません：送信先を停止し、オーナーにメールでお知らせします。",
        },
        "429": {
          description:
            "混雑中：Retry-After（秒または日時）があれば、再試行の予定より遅ければそれに従います。それ以外の応答（3xx を含む、リダイレクトは追いません）や無応答（10秒）は、5秒・5分・30分・2時間・5時間・10時間・10時間後に再試行します。",
        },
      },
    });
  }
}
