import { once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";

/** One request a receiver got: its headers (lower case) and its raw body. */
export type ReceivedWebhook = { path: string; headers: Record<string, string>; body: string };

/** How the receiver answers the next request (then the default: 200). */
export type ReceiverAnswer = {
  status: number;
  headers?: Record<string, string>;
  /** Never answer (a timeout test). */
  hang?: boolean;
};

/**
 * A real HTTP server on 127.0.0.1 standing for a salon's system: it keeps what
 * it received and answers as told, so tests verify signatures with the
 * `standardwebhooks` package over a real connection.
 */
export async function startWebhookReceiver() {
  const received: ReceivedWebhook[] = [];
  const answers: ReceiverAnswer[] = [];
  const waiting: (() => void)[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const headers: Record<string, string> = {};
      for (const [key, value] of Object.entries(request.headers)) {
        if (typeof value === "string") headers[key] = value;
      }
      received.push({ path: request.url ?? "/", headers, body: Buffer.concat(chunks).toString() });
      for (const wake of waiting.splice(0)) wake();
      const answer = answers.shift() ?? { status: 200 };
      if (answer.hang) return;
      response.writeHead(answer.status, answer.headers ?? {});
      response.end("ok");
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: (path = "/hook") => `http://127.0.0.1:${port}${path}`,
    received,
    /** Queues answers for the next requests, in order. */
    answer(...next: ReceiverAnswer[]) {
      answers.push(...next);
    },
    /** Resolves once `count` requests have come in. */
    async waitFor(count: number, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`receiver got ${received.length} of ${count}`);
        await new Promise<void>((resolve) => {
          waiting.push(resolve);
          setTimeout(resolve, 200);
        });
      }
      return received;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
