import { type ChildProcess, spawn } from "node:child_process";
import { expect, test } from "@playwright/test";

// Next to the e2e server's port, so parallel checkouts do not collide.
const PORT = Number(process.env.E2E_PORT ?? 3100) + 99;
const base = `http://localhost:${PORT}`;

async function startServer() {
  const child = spawn(process.execPath, ["server.js"], {
    env: { ...process.env, DATABASE_URL: "memory://", PORT: String(PORT), LOG_LEVEL: "info" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk) => {
    output += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    output += chunk;
  });
  // Generous: on a loaded 2-core machine a cold start can take several seconds.
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) break;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  return { child, output: () => output };
}

const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));

test.describe.configure({ timeout: 120_000 });

test("logs one structured line per request with its request id", async () => {
  const { child, output } = await startServer();
  try {
    const response = await fetch(`${base}/about`);
    const requestId = response.headers.get("x-request-id");
    await response.text();
    await expect
      .poll(() =>
        output()
          .split("\n")
          .filter((line) => line.startsWith("{"))
          .map((line) => JSON.parse(line))
          .find((entry) => entry.msg === "request" && entry.requestId === requestId),
      )
      .toMatchObject({ method: "GET", path: "/about", status: 200 });
  } finally {
    child.kill("SIGKILL");
  }
});

test("SIGTERM finishes in-flight requests, closes the database and exits 0", async () => {
  const { child, output } = await startServer();
  const exit = exited(child);
  const inFlight = fetch(`${base}/`).then(async (response) => ({
    status: response.status,
    body: await response.text(),
  }));
  await new Promise((resolve) => setTimeout(resolve, 20));
  child.kill("SIGTERM");
  const finished = await inFlight;
  expect(finished.status).toBe(200);
  expect(finished.body).toContain("</html>");
  expect(await exit).toBe(0);
  expect(output()).toContain('"msg":"stopped"');
  await expect(fetch(`${base}/healthz`)).rejects.toThrow();
});
