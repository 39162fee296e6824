import { validateSignature } from "@line/bot-sdk";
import type { Context } from "hono";
import type { RateLimits } from "../accounts/rate-limit";
import { clientIp } from "../accounts/request-info";
import type { Database } from "../db/client";
import { DomainError } from "../errors/domain-error";
import { domainErrorResponse } from "../http/errors";
import type { Logger } from "../logger";
import type { LineChannel } from "./line-channel.server";
import { lineCallbackSchema, recordLineEvents } from "./line-webhook.server";

/** LINE's webhook bodies carry at most a few hundred events: far less than this. */
const MAX_BODY_BYTES = 1024 * 1024;

/** Requests a minute from one address: LINE's deliveries come in bursts, a script's in floods. */
const PER_IP_PER_MINUTE = 600;

/**
 * POST /api/line/webhook (decision 0089): the raw body verified against
 * `x-line-signature` (base64 HMAC-SHA256 with the channel secret, compared in
 * constant time by the SDK's validateSignature) before anything is read from
 * it; a bad or missing signature is 401 and nothing is recorded.
 */
export function lineWebhook({
  db,
  line,
  limits,
  log,
}: {
  db: Database;
  line: LineChannel | null;
  limits: RateLimits;
  log: Logger;
}) {
  return async (c: Context) => {
    if (!line) {
      return domainErrorResponse(
        c,
        new DomainError("line_disabled", "LINE連携は利用できません。", 404),
      );
    }
    const byIp = await limits.store.consume(`line-webhook:ip:${clientIp(c.req.raw)}`, {
      window: 60,
      max: PER_IP_PER_MINUTE,
    });
    if (!byIp.allowed) {
      return domainErrorResponse(
        c,
        new DomainError(
          "too_many_requests",
          "リクエストが多すぎます。しばらくしてからお試しください。",
          429,
          { retryAfter: byIp.retryAfter ?? 60 },
        ),
      );
    }
    const body = Buffer.from(await c.req.arrayBuffer());
    if (body.byteLength > MAX_BODY_BYTES) {
      return domainErrorResponse(
        c,
        new DomainError("payload_too_large", "送信内容が大きすぎます。", 413),
      );
    }
    const signature = c.req.header("x-line-signature") ?? "";
    if (!signature || !validateSignature(body, line.channelSecret, signature)) {
      log.warn("line: webhook refused (signature)");
      return domainErrorResponse(
        c,
        new DomainError("bad_signature", "署名を確認できませんでした。", 401),
      );
    }
    let json: unknown;
    try {
      json = JSON.parse(body.toString("utf8"));
    } catch {
      return domainErrorResponse(
        c,
        new DomainError("bad_request", "送信内容を読み取れませんでした。", 400),
      );
    }
    const parsed = lineCallbackSchema.safeParse(json);
    if (!parsed.success) {
      return domainErrorResponse(
        c,
        new DomainError("bad_request", "送信内容の形式が正しくありません。", 400),
      );
    }
    await recordLineEvents(db, parsed.data);
    return c.json({});
  };
}
