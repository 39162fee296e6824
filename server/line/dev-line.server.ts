import type { FakeLine } from "./fake/fake-line.server";

/**
 * /dev/line: the pushes the local fake Messaging API received, by LINE user,
 * newest first, with each text message's text (what the phone would show).
 */
export function fakeLineInbox(fake: FakeLine | null) {
  if (!fake) return { fake: false, users: [] };
  const byUser = new Map<string, { id: string; at: string; texts: string[] }[]>();
  for (const push of [...fake.received].reverse()) {
    const list = byUser.get(push.to) ?? [];
    list.push({
      id: push.requestId,
      at: push.at.toISOString(),
      texts: push.messages.map((message) =>
        message.type === "text" ? String(message.text) : `（${String(message.type)} メッセージ）`,
      ),
    });
    byUser.set(push.to, list);
  }
  return {
    fake: true,
    users: [...byUser].map(([lineUserId, messages]) => ({ lineUserId, messages })),
  };
}
