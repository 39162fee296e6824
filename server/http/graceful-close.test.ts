import { once } from "node:events";
import type { Server } from "node:http";
import net from "node:net";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { afterEach, describe, expect, it } from "vitest";
import { gracefulClose } from "./graceful-close";

/** A server whose /work answers after `release()`, and tells when a request reached it. */
async function startServer() {
  const app = new Hono();
  let arrived = () => {};
  let release = () => {};
  app.all("/work", async (c) => {
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    arrived();
    const body = c.req.method === "POST" ? await c.req.text() : "";
    await released;
    return c.text(`done ${body}`);
  });
  app.get("/quick", (c) => c.text("quick"));
  const server = await new Promise<Server>((resolve) => {
    const started = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, () =>
      resolve(started as Server),
    );
  });
  const { port } = server.address() as net.AddressInfo;
  return {
    server,
    port,
    close: gracefulClose(server),
    /** Resolves when the next request reaches the /work handler. */
    nextArrival: () =>
      new Promise<void>((resolve) => {
        arrived = resolve;
      }),
    release: () => release(),
  };
}

/** A raw connection that collects everything the server sends until it closes. */
async function connect(port: number) {
  const socket = net.connect(port, "127.0.0.1");
  await once(socket, "connect");
  let received = "";
  socket.on("data", (chunk) => {
    received += chunk;
  });
  const ended = new Promise<string>((resolve) => {
    socket.on("error", (error: NodeJS.ErrnoException) => {
      received += `[${error.code}]`;
    });
    socket.on("close", () => resolve(received));
  });
  return {
    socket,
    received: () => received,
    ended,
    /** Writes and waits until the bytes are handed to the operating system. */
    write: (data: string) =>
      new Promise<void>((resolve, reject) =>
        socket.write(data, (error) => (error ? reject(error) : resolve())),
      ),
    until: async (text: string) => {
      while (!received.includes(text)) await once(socket, "data");
    },
  };
}

let stopAfter: (() => void) | undefined;
afterEach(() => stopAfter?.());

describe("gracefulClose", () => {
  it("answers a request already sent on a kept-alive connection that looked idle", async () => {
    const { server, port, close } = await startServer();
    stopAfter = () => server.closeAllConnections();
    const client = await connect(port);
    await client.write("GET /quick HTTP/1.1\r\nHost: x\r\n\r\n");
    await client.until("quick");
    // The next request is in the socket's buffer, not yet read by this (single) thread:
    // plain server.close() resets the connection under it.
    await client.write("GET /quick HTTP/1.1\r\nHost: x\r\n\r\n");
    const closed = close();
    const received = await client.ended;
    expect(received.match(/HTTP\/1\.1 200 OK/g)).toHaveLength(2);
    expect(received).not.toContain("ECONNRESET");
    expect(received.split("\r\n\r\nquick")[1]).toContain("Connection: close");
    await closed;
  });

  it("lets a request in progress finish, and then closes its connection", async () => {
    const { server, port, close, nextArrival, release } = await startServer();
    stopAfter = () => server.closeAllConnections();
    const client = await connect(port);
    const arrived = nextArrival();
    await client.write("GET /work HTTP/1.1\r\nHost: x\r\n\r\n");
    await arrived;
    let closed = false;
    const done = close().then(() => {
      closed = true;
    });
    // New connections are refused once the server has stopped listening.
    await expect.poll(() => server.listening, { interval: 5 }).toBe(false);
    release();
    const received = await client.ended;
    expect(received).toMatch(/^HTTP\/1\.1 200 OK[\s\S]*done $/);
    expect(received).toContain("Connection: close");
    await done;
    expect(closed).toBe(true);
  });

  it("waits for a request body still on its way", async () => {
    const { server, port, close, nextArrival, release } = await startServer();
    stopAfter = () => server.closeAllConnections();
    const client = await connect(port);
    const arrived = nextArrival();
    await client.write(
      "POST /work HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n",
    );
    await client.until("100 Continue");
    await arrived;
    const done = close();
    await expect.poll(() => server.listening, { interval: 5 }).toBe(false);
    await client.write("hello");
    release();
    expect(await client.ended).toMatch(/HTTP\/1\.1 200 OK[\s\S]*done hello$/);
    await done;
  });

  it("closes idle kept-alive connections, so the server is closed without waiting for them", async () => {
    const { server, port, close } = await startServer();
    stopAfter = () => server.closeAllConnections();
    const client = await connect(port);
    await client.write("GET /quick HTTP/1.1\r\nHost: x\r\n\r\n");
    await client.until("quick");
    await close();
    expect(await client.ended).toContain("Connection: keep-alive");
  });
});
