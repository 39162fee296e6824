import { parseArgs } from "node:util";
import { DEV_LINE_ACCESS_TOKEN } from "../line-channel.server";
import { FakeLine } from "./fake-line.server";

/**
 * The fake Messaging API as a process of its own (decision 0089): one fake
 * shared by several app processes, each pointed at it with LINE_API_URL and
 * the same LINE_CHANNEL_ACCESS_TOKEN (the development token when unset).
 *
 *   npm run line:fake -- --port 12112 [--host 127.0.0.1]
 *
 * Prints one line of JSON, {"apiUrl": …}, once it listens; stops on SIGTERM or SIGINT.
 */
const { values } = parseArgs({
  options: {
    port: { type: "string", default: "0" },
    host: { type: "string", default: "127.0.0.1" },
  },
});
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  console.error("line:fake: --port wants a port number (0: any free one)");
  process.exit(2);
}
const fake = new FakeLine({
  accessToken: process.env.LINE_CHANNEL_ACCESS_TOKEN || DEV_LINE_ACCESS_TOKEN,
  port,
  host: values.host,
});
const apiUrl = await fake.start();
console.log(JSON.stringify({ apiUrl }));

for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.once(signal, () => {
    fake.close().then(() => process.exit(0));
  });
}
