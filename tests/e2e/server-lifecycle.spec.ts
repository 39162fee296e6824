import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import pg from "pg";

// Next to the e2e server's port, so parallel checkouts do not collide; one
// per Playwright worker, so two workers' servers do not either.
const PORT =
  Number(process.env.E2E_PORT ?? 3100) + 99 + 1000 * Number(process.env.TEST_PARALLEL_INDEX ?? 0);
const base = `http://localhost:${PORT}`;

async function startServer(
  logLevel: "info" | "debug" = "info",
  env: Record<string, string> = { DATABASE_URL: "memory://" },
) {
  const child = spawn(process.execPath, ["server.js"], {
    env: { ...process.env, PORT: String(PORT), LOG_LEVEL: logLevel, ...env },
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

/** The server's JSON log lines so far. */
const logLines = (output: string): { msg: string; [field: string]: unknown }[] =>
  output
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line));

/** A raw connection: what it receives, and when the server closes it. */
async function connect() {
  const socket = net.connect(PORT, "127.0.0.1");
  await once(socket, "connect");
  let received = "";
  socket.setEncoding("utf8");
  socket.on("data", (chunk: string) => {
    received += chunk;
  });
  const ended = new Promise<string>((resolve) => {
    socket.on("error", (error: NodeJS.ErrnoException) => {
      received += `[${error.code}]`;
    });
    socket.on("close", () => resolve(received));
  });
  return { socket, ended, received: () => received };
}

test("SIGTERM finishes an in-flight request, closes the database and exits 0", async () => {
  const { child, output } = await startServer("debug");
  const exit = exited(child);
  const client = await connect();
  client.socket.write("GET / HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n");
  // Signal only once the server has the request (its debug line), never after a guessed delay.
  await expect
    .poll(() => logLines(output()).some((l) => l.msg === "request started" && l.path === "/"))
    .toBe(true);
  child.kill("SIGTERM");
  const received = await client.ended;
  expect(received).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
  expect(received).toContain("</html>");
  expect(received).not.toMatch(/\[E[A-Z]+\]/);
  expect(await exit).toBe(0);
  expect(output()).toContain('"msg":"stopped"');
  await expect(fetch(`${base}/healthz`)).rejects.toThrow();
});

test("SIGTERM waits for the body of a form post still on its way", async () => {
  const { child, output } = await startServer("info");
  const exit = exited(child);
  const client = await connect();
  const body = new URLSearchParams({ email: "nobody@example.com", password: "wrong-password" });
  client.socket.write(
    [
      "POST /signin HTTP/1.1",
      "Host: localhost",
      "Sec-Fetch-Site: same-origin",
      "Content-Type: application/x-www-form-urlencoded",
      `Content-Length: ${body.toString().length}`,
      // The server's 100 Continue says it has parsed the request and waits for its body.
      "Expect: 100-continue",
      "",
      "",
    ].join("\r\n"),
  );
  await expect.poll(client.received).toContain("HTTP/1.1 100 Continue");
  child.kill("SIGTERM");
  await expect.poll(output).toContain('"msg":"shutting down"');
  client.socket.write(body.toString());
  const received = await client.ended;
  const answer = received.split("\r\n\r\n").slice(1).join("\r\n\r\n");
  expect(answer).toMatch(/^HTTP\/1\.1 [234]\d\d /);
  expect(answer).toContain("Connection: close");
  expect(await exit).toBe(0);
  expect(logLines(output())).toContainEqual(
    expect.objectContaining({ msg: "request", method: "POST", path: "/signin" }),
  );
});

/** A PostgreSQL database of this test's own on the server CI runs (TEST_DATABASE_URL), dropped after. */
async function withPostgresDatabase(use: (url: string) => Promise<void>) {
  const serverUrl = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
  const name = `e2e_cluster_${PORT}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  try {
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    await use(url.toString());
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

const listeningPids = (output: string) =>
  logLines(output)
    .filter((line) => line.msg === "listening")
    .map((line) => Number(line.pid));

test("WEB_CONCURRENCY=2 on PostgreSQL: two server processes, a dead one replaced, SIGTERM stops all", async () => {
  await withPostgresDatabase(async (databaseUrl) => {
    const { child, output } = await startServer("info", {
      DATABASE_URL: databaseUrl,
      WEB_CONCURRENCY: "2",
    });
    const exit = exited(child);
    try {
      // Starting a process takes seconds on a busy 2-core machine: the point is that it happens.
      const starts = { timeout: 30_000 };
      await expect.poll(() => new Set(listeningPids(output())).size, starts).toBe(2);
      const [first, second] = listeningPids(output());
      expect(first).not.toBe(child.pid);
      expect(second).not.toBe(child.pid);
      expect((await fetch(`${base}/about`)).status).toBe(200);

      // A worker that dies is replaced; the port keeps answering meanwhile.
      process.kill(first as number, "SIGKILL");
      await expect.poll(() => listeningPids(output()).length, starts).toBe(3);
      const replacement = listeningPids(output())[2];
      expect([first, second]).not.toContain(replacement);
      expect((await fetch(`${base}/about`)).status).toBe(200);

      child.kill("SIGTERM");
      expect(await exit).toBe(0);
      const stopped = logLines(output()).filter((line) => line.msg === "stopped");
      expect(stopped).toHaveLength(2);
      for (const pid of [second, replacement])
        expect(() => process.kill(pid as number, 0)).toThrow();
      await expect(fetch(`${base}/healthz`)).rejects.toThrow();
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL");
    }
  });
});

test("production behind TLS: an https PUBLIC_URL needs TRUST_PROXY, and then a form posted from https is taken", async () => {
  const hosted = {
    DATABASE_URL: "memory://",
    NODE_ENV: "production",
    BETTER_AUTH_SECRET: "a-production-secret-that-is-long-enough-0069",
    PUBLIC_URL: "https://salon.example.jp",
  };
  // Without a trusted proxy the app could never see https: it stops at once, saying what to set.
  const refused = spawn(process.execPath, ["server.js"], {
    env: { ...process.env, PORT: String(PORT), ...hosted, TRUST_PROXY: "" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let said = "";
  refused.stdout?.on("data", (chunk) => {
    said += chunk;
  });
  refused.stderr?.on("data", (chunk) => {
    said += chunk;
  });
  expect(await exited(refused)).not.toBe(0);
  expect(said).toContain("TRUST_PROXY");
  expect(said).toContain("TLS を終端するプロキシを TRUST_PROXY に設定してください");

  const { child } = await startServer("info", { ...hosted, TRUST_PROXY: "1" });
  const exit = exited(child);
  // The sign-in link form from the https page, as the TLS proxy passes it on.
  const post = (headers: Record<string, string>) =>
    fetch(`${base}/signin`, {
      method: "POST",
      redirect: "manual",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        origin: "https://salon.example.jp",
        ...headers,
      },
      body: new URLSearchParams({ intent: "link", email: "proxy@example.jp" }),
    });
  const proxied = await post({
    "x-forwarded-proto": "https",
    "x-forwarded-host": "salon.example.jp",
    "x-forwarded-for": "198.51.100.7",
  });
  expect(proxied.status).toBe(302);
  expect(proxied.headers.get("location")).toBe("/signin?sent=link");
  // The same post without the proxy's word is the plain-http request it is, and refused.
  expect((await post({})).status).toBe(400);
  child.kill("SIGTERM");
  expect(await exit).toBe(0);
});

test("production behind a real TLS proxy (HAProxy): Chromium posts the sign-in form over https and it is taken", async ({
  browser,
}) => {
  // The proxy on the port after the server's; a certificate for localhost made now.
  const proxyPort = PORT + 1;
  const origin = `https://localhost:${proxyPort}`;
  const dir = mkdtempSync(path.join(tmpdir(), "tls-proxy-"));
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-days",
      "1",
      "-subj",
      "/CN=localhost",
      "-addext",
      "subjectAltName=DNS:localhost",
      "-keyout",
      path.join(dir, "site.key"),
      "-out",
      path.join(dir, "site.crt"),
    ],
    { stdio: "ignore" },
  );
  execFileSync("sh", ["-c", `cat "${dir}/site.crt" "${dir}/site.key" > "${dir}/site.pem"`]);
  // What deploy/haproxy.cfg does for the site, reduced to one server: TLS, HTTP/2, and the
  // forwarded headers written by the proxy (a client's own dropped).
  writeFileSync(
    path.join(dir, "haproxy.cfg"),
    `defaults
    mode http
    timeout connect 2s
    timeout client 30s
    timeout server 30s
frontend site
    bind 127.0.0.1:${proxyPort} ssl crt ${dir}/site.pem alpn h2,http/1.1
    http-request del-header Forwarded
    http-request del-header X-Forwarded-For
    http-request set-header X-Forwarded-Proto https
    http-request set-header X-Forwarded-Host %[req.hdr(host)]
    option forwardfor
    default_backend app
backend app
    server app1 127.0.0.1:${PORT}
`,
  );
  const proxy = spawn("haproxy", ["-db", "-f", path.join(dir, "haproxy.cfg")], { stdio: "ignore" });
  const { child } = await startServer("info", {
    DATABASE_URL: "memory://",
    NODE_ENV: "production",
    BETTER_AUTH_SECRET: "a-production-secret-that-is-long-enough-0069",
    PUBLIC_URL: origin,
    TRUST_PROXY: "127.0.0.1",
    PROXY_HEADERS: "x-forwarded",
  });
  const exit = exited(child);
  const context = await browser.newContext({ ignoreHTTPSErrors: true });
  try {
    const page = await context.newPage();
    const posts: number[] = [];
    page.on("response", (response) => {
      if (response.request().method() === "POST") posts.push(response.status());
    });
    await expect
      .poll(async () => (await page.goto(`${origin}/signin`).catch(() => null))?.status(), {
        timeout: 30_000,
      })
      .toBe(200);
    await page.getByLabel("ログイン用リンクの送信先メールアドレス").fill("proxy@example.jp");
    await page.getByRole("button", { name: "ログイン用リンクを送る" }).click();
    await page.waitForURL(`${origin}/signin?sent=link`);
    // The form post went through the proxy over https and was taken: no 400 from the origin check.
    expect(posts.length).toBeGreaterThan(0);
    expect(posts.every((status) => status < 400)).toBe(true);
  } finally {
    await context.close();
    proxy.kill("SIGTERM");
    child.kill("SIGTERM");
    await exit;
    rmSync(dir, { recursive: true, force: true });
  }
});
