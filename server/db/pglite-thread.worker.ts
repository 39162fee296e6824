/**
 * The PGlite database of one app process, in a worker thread of its own
 * (decision 0025): PostgreSQL's work runs here while the main thread renders
 * pages. The main thread speaks the PostgreSQL wire protocol to it through
 * node-postgres (server/db/pglite-thread.server.ts); this file only moves
 * bytes. Node runs it as is (type stripping), in development, tests and the
 * built server alike, so it uses erasable TypeScript only and imports
 * packages, never our own modules.
 */
import { parentPort, workerData } from "node:worker_threads";
import { PGlite } from "@electric-sql/pglite";
import { btree_gist } from "@electric-sql/pglite/contrib/btree_gist";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";

export type ToWorker =
  | { type: "protocol"; id: number; connection: number; bytes: Uint8Array }
  | { type: "end"; id: number; connection: number }
  | { type: "close"; id: number };

export type FromWorker =
  | { type: "ready" }
  | { type: "failed"; message: string }
  | { type: "protocol"; id: number; bytes: Uint8Array }
  | { type: "done"; id: number }
  | { type: "error"; id: number; message: string }
  | { type: "notification"; channel: string; payload: string };

const port = parentPort;
if (!port) throw new Error("pglite-thread.worker.ts runs in a worker thread");
const send = (message: FromWorker, transfer: ArrayBuffer[] = []) =>
  port.postMessage(message, transfer);

const { dataDir } = workerData as { dataDir: string };
let database: PGlite;
try {
  database = await PGlite.create({ dataDir, extensions: { btree_gist, pg_trgm } });
} catch (error) {
  send({ type: "failed", message: (error as Error).message });
  throw error;
}
// NOTIFY from any statement (PGlite reads them out of the protocol's output).
database.onNotification((channel, payload) => send({ type: "notification", channel, payload }));

/*
 * PGlite is one session; the main thread's pool has several connections so
 * that queries of concurrent requests wait here, ready, instead of in the
 * pool. An exchange is a whole query (node-postgres sends parse to sync in
 * one), so they run one at a time in arrival order, except that once a
 * connection's exchange leaves the session inside a transaction, only that
 * connection's exchanges run until it ends: what a server's locks and
 * PGlite's own transaction mutex give.
 */
const waiting: ToWorker[] = [];
let owner: number | null = null;
let running = false;

port.on("message", (message: ToWorker) => {
  waiting.push(message);
  pump();
});

function pump() {
  if (running) return;
  const index = waiting.findIndex(
    (message) => message.type !== "protocol" || owner === null || message.connection === owner,
  );
  if (index < 0) return;
  const [message] = waiting.splice(index, 1);
  if (!message) return;
  running = true;
  run(message).finally(() => {
    running = false;
    pump();
  });
}

async function run(message: ToWorker) {
  try {
    if (message.type === "protocol") {
      const bytes = await database.execProtocolRaw(message.bytes);
      owner = database.isInTransaction() ? message.connection : null;
      const own = bytes.slice();
      send({ type: "protocol", id: message.id, bytes: own }, [own.buffer]);
    } else if (message.type === "end") {
      // A connection closed (its client was dropped) inside its transaction:
      // as a server would, roll it back so the session serves the others.
      if (owner === message.connection) {
        owner = null;
        if (database.isInTransaction()) await database.exec("rollback");
      }
      send({ type: "done", id: message.id });
    } else {
      await database.close();
      send({ type: "done", id: message.id });
    }
  } catch (error) {
    send({ type: "error", id: message.id, message: (error as Error).message });
  }
}
send({ type: "ready" });
