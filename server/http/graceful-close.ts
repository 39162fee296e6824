import type { Server, ServerResponse } from "node:http";
import type { ServerType } from "@hono/node-server";

/**
 * Prepares an HTTP/1 server for a graceful shutdown and returns the function
 * that performs it: no new connections, every request the server has
 * received is answered, then its connections are closed. That function
 * resolves once the last connection is closed.
 *
 * Plain `server.close()` falls short twice (Node 19 and later):
 * - It at once destroys the keep-alive connections it counts as idle: their
 *   last request is answered and their parser has not begun another
 *   (`closeIdleConnections`; a connection whose request headers were parsed,
 *   or whose answer is unfinished, is kept). A request that has reached the
 *   socket but was not yet read by the event loop does not count, so its
 *   connection was reset under a request the client had sent in time. So
 *   the loop first goes once more through its poll phase, which reads what
 *   has arrived and makes those connections busy; only then does `close()`
 *   sweep the idle ones.
 * - A request in progress was answered `Connection: keep-alive`, and its
 *   connection then held the shutdown until the keep-alive timeout (or was
 *   reused by the client and reset). So the requests in progress are
 *   tracked: each answer from the signal on says `Connection: close`, or,
 *   when its headers are already out, its connection is closed once idle.
 */
export function gracefulClose(server: ServerType): () => Promise<void> {
  // serve() without a createServer option makes a node:http server.
  const http = server as Server;
  const inProgress = new Set<ServerResponse>();
  let closing = false;
  http.prependListener("request", (_request, response) => {
    if (closing) {
      response.setHeader("Connection", "close");
      return;
    }
    inProgress.add(response);
    response.once("close", () => inProgress.delete(response));
  });
  return () => {
    closing = true;
    for (const response of inProgress) {
      if (!response.headersSent) response.setHeader("Connection", "close");
      // Node detaches the socket in its own 'finish' listener; sweep after it.
      else response.once("finish", () => setImmediate(() => http.closeIdleConnections()));
    }
    return new Promise((resolve) => {
      // The first immediate runs after the current poll phase, the second after the next one.
      setImmediate(() => setImmediate(() => http.close(() => resolve())));
    });
  };
}
