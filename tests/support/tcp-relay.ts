import net from "node:net";

export type TcpRelay = {
  port: number;
  /** `url` with its host and port replaced by the relay's. */
  urlThrough(url: string): string;
  /** The server goes away, as in a failover: open connections are reset, new ones refused. */
  cut(): Promise<void>;
  /** Back on the same port. */
  restore(): Promise<void>;
  close(): Promise<void>;
};

/**
 * A TCP relay on a loopback port to a real server (PostgreSQL here): tests
 * point the app at it, then cut it to lose the server the way a failover or
 * a dead host does — pooled connections reset, new ones refused — and
 * restore it, without touching the server itself.
 */
export async function startTcpRelay(target: { host: string; port: number }): Promise<TcpRelay> {
  const sockets = new Set<net.Socket>();
  let server: net.Server | null = null;
  let port = 0;

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const next = net.createServer((client) => {
        const upstream = net.connect(target.port, target.host);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on("close", () => sockets.delete(socket));
          socket.on("error", () => {
            client.destroy();
            upstream.destroy();
          });
        }
        client.pipe(upstream);
        upstream.pipe(client);
      });
      next.once("error", reject);
      next.listen(port, "127.0.0.1", () => {
        port = (next.address() as net.AddressInfo).port;
        server = next;
        resolve();
      });
    });

  const cut = async () => {
    const closing = server;
    server = null;
    if (!closing) return;
    const closed = new Promise<void>((resolve) => closing.close(() => resolve()));
    for (const socket of sockets) socket.resetAndDestroy();
    sockets.clear();
    await closed;
  };

  await listen();
  return {
    port,
    urlThrough(url) {
      const through = new URL(url);
      through.hostname = "127.0.0.1";
      through.port = String(port);
      return through.toString();
    },
    cut,
    restore: () => (server ? Promise.resolve() : listen()),
    close: cut,
  };
}
