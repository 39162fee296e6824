import { HTTPFetchError, messagingApi } from "@line/bot-sdk";
import type { Config } from "../config";
import type { Logger } from "../logger";
import { FakeLine } from "./fake/fake-line.server";

/**
 * The Messaging API channel this server pushes through (decision 0089): LINE
 * with LINE_CHANNEL_SECRET and LINE_CHANNEL_ACCESS_TOKEN (at LINE_API_URL
 * when set); otherwise, outside production, the local fake started here; in
 * production without them, none (every message goes by mail).
 */

/** How one push ended, as the sending job reads it. */
export type PushOutcome =
  /** Accepted now, or already accepted for this retry key (409). */
  | { kind: "sent" }
  /** 429, 5xx, a network error or a timeout: worth another try later. */
  | { kind: "retry"; error: string }
  /** Any other 4xx: LINE said no, and would say it again. */
  | { kind: "refused"; error: string };

export type PushRequest = {
  to: string;
  messages: messagingApi.Message[];
  /** The line_messages row's id, the same on every attempt. */
  retryKey: string;
};

export type LineChannel = {
  push(request: PushRequest): Promise<PushOutcome>;
  /** Verifies the inbound webhook's signature. */
  channelSecret: string;
  /** The fake, when it is the one answering (development, tests). */
  fake: FakeLine | null;
  close(): Promise<void>;
};

/** The development channel's secret and token: the fake's, never a real channel's. */
export const DEV_LINE_CHANNEL_SECRET = "salon-navi-development-line-channel-secret";
export const DEV_LINE_ACCESS_TOKEN = "salon-navi-development-line-access-token";

/** The SDK's fetch has no timeout of its own: a push that hangs is given up after this. */
const PUSH_TIMEOUT_MS = 10_000;

class PushTimeout extends Error {}

export function createLineChannel({
  accessToken,
  channelSecret,
  apiUrl,
  fake = null,
  timeoutMs = PUSH_TIMEOUT_MS,
  close = async () => {},
}: {
  accessToken: string;
  channelSecret: string;
  apiUrl?: string;
  fake?: FakeLine | null;
  timeoutMs?: number;
  close?: () => Promise<void>;
}): LineChannel {
  const client = new messagingApi.MessagingApiClient({
    channelAccessToken: accessToken,
    ...(apiUrl ? { baseURL: apiUrl } : {}),
  });
  return {
    channelSecret,
    fake,
    close,
    async push({ to, messages, retryKey }) {
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          client.pushMessage({ to, messages }, retryKey),
          new Promise((_, reject) => {
            timer = setTimeout(() => reject(new PushTimeout("LINE push timed out")), timeoutMs);
          }),
        ]);
        return { kind: "sent" };
      } catch (error) {
        return outcomeOf(error);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

function outcomeOf(error: unknown): PushOutcome {
  if (error instanceof HTTPFetchError) {
    // LINE already accepted a request with this retry key: the message went.
    if (error.status === 409) return { kind: "sent" };
    const message = `LINE answered ${error.status}: ${error.body.slice(0, 200)}`;
    if (error.status === 429 || error.status >= 500) return { kind: "retry", error: message };
    return { kind: "refused", error: message };
  }
  // A network error, a timeout: the request may or may not have arrived; the retry key decides.
  return { kind: "retry", error: error instanceof Error ? error.message : String(error) };
}

/** A fake Messaging API on a free loopback port and a channel talking to it: tests, development. */
export async function startFakeLine(
  options: { accessToken?: string; channelSecret?: string; timeoutMs?: number; port?: number } = {},
) {
  const accessToken = options.accessToken ?? DEV_LINE_ACCESS_TOKEN;
  const fake = new FakeLine({ accessToken, port: options.port });
  const apiUrl = await fake.start();
  const channel = createLineChannel({
    accessToken,
    channelSecret: options.channelSecret ?? DEV_LINE_CHANNEL_SECRET,
    apiUrl,
    fake,
    timeoutMs: options.timeoutMs,
    close: () => fake.close(),
  });
  return { fake, channel, apiUrl };
}

export async function startLine(
  config: Pick<
    Config,
    "LINE_CHANNEL_SECRET" | "LINE_CHANNEL_ACCESS_TOKEN" | "LINE_API_URL" | "isProduction"
  >,
  log?: Logger,
): Promise<LineChannel | null> {
  if (config.LINE_CHANNEL_SECRET && config.LINE_CHANNEL_ACCESS_TOKEN) {
    return createLineChannel({
      accessToken: config.LINE_CHANNEL_ACCESS_TOKEN,
      channelSecret: config.LINE_CHANNEL_SECRET,
      apiUrl: config.LINE_API_URL,
    });
  }
  if (config.isProduction) return null;
  const { channel, apiUrl } = await startFakeLine();
  log?.info("line: no LINE_CHANNEL_ACCESS_TOKEN, using the local fake Messaging API (/dev/line)", {
    apiUrl,
  });
  return channel;
}
