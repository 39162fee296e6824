import { spawn } from "node:child_process";
import { createServer } from "node:net";
import Redis from "ioredis";

/**
 * A throwaway redis-server of the test's own on a free port (no
 * persistence), so a test never reads or clears another's keys in a shared
 * Redis. `client()` opens a connection that has waited for the server.
 */
export async function startRedisServer() {
  const port = await freePort();
  const server = spawn(
    "redis-server",
    ["--port", String(port), "--save", "", "--appendonly", "no"],
    {
      stdio: "ignore",
      // A service keeps the real clock, as the machine's PostgreSQL and Redis do when the suite
      // runs under scripts/test-at.sh (redis-server under libfaketime's offset never answers).
      env: { ...process.env, LD_PRELOAD: "", FAKETIME: "" },
    },
  );
  const clients: Redis[] = [];
  const client = async () => {
    const redis = new Redis(port, "127.0.0.1", { maxRetriesPerRequest: 5 });
    redis.on("error", () => undefined); // until it is up
    clients.push(redis);
    await waitFor(async () => (await redis.ping()) === "PONG");
    return redis;
  };
  const stop = () => {
    for (const redis of clients) redis.disconnect();
    server.kill();
  };
  return { port, url: `redis://127.0.0.1:${port}`, client, stop };
}

function freePort() {
  return new Promise<number>((resolve) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

async function waitFor(check: () => Promise<boolean>) {
  for (let i = 0; i < 50; i++) {
    try {
      if (await check()) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("timed out");
}
