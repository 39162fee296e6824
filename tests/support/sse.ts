import { Inbox } from "./inbox";

export type SseMessage = {
  event?: string;
  id?: string;
  retry?: number;
  data?: string;
  /** A comment line (": ping"), sent as a heartbeat. */
  comment?: string;
};

/**
 * Reads a text/event-stream body as it arrives, message by message, into an
 * Inbox the test awaits (no sleeps). `close()` cancels the body, as a
 * browser closing the tab does.
 */
export function readEventStream(response: Response) {
  const body = response.body;
  if (!body) throw new Error("no body");
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  const inbox = new Inbox<SseMessage>();
  let buffer = "";
  const pump = async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      buffer += value;
      let end = buffer.indexOf("\n\n");
      while (end >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        inbox.push(parseBlock(block));
        end = buffer.indexOf("\n\n");
      }
    }
  };
  const done = pump().catch(() => {});
  return {
    inbox,
    /** The next `availability` event, parsed. */
    async nextAvailability<T = unknown>() {
      const message = await inbox.next((m) => m.event === "availability");
      return { ...message, payload: JSON.parse(message.data ?? "null") as T };
    },
    async close() {
      await reader.cancel().catch(() => {});
      await done;
    },
  };
}

function parseBlock(block: string): SseMessage {
  const message: SseMessage = {};
  const data: string[] = [];
  for (const line of block.split("\n")) {
    if (line.startsWith(":")) message.comment = line.slice(1).trim();
    else {
      const index = line.indexOf(":");
      const field = index < 0 ? line : line.slice(0, index);
      const value = index < 0 ? "" : line.slice(index + 1).replace(/^ /, "");
      if (field === "data") data.push(value);
      else if (field === "event") message.event = value;
      else if (field === "id") message.id = value;
      else if (field === "retry") message.retry = Number(value);
    }
  }
  if (data.length > 0) message.data = data.join("\n");
  return message;
}
