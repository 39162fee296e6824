import { EventEmitter } from "node:events";
import path from "node:path";
import { Worker } from "node:worker_threads";
import pg from "pg";
import { serialize } from "pg-protocol";
import { Parser } from "pg-protocol/dist/parser";
import type { FromWorker, ToWorker } from "./pglite-thread.worker";

type BackendMessage = Parameters<Parameters<Parser["parse"]>[1]>[0];

/**
 * PGlite in a worker thread, reached through node-postgres like a server
 * (decision 0025). PGlite executes on the thread that calls it; in the main
 * thread every search's SQL would wait for, and hold up, every page being
 * rendered. Here the main thread only serializes and parses the wire
 * protocol, and the same driver (pg) and code path serve both engines.
 *
 * `pool()` is the node-postgres pool over it; `onNotification` hears every
 * NOTIFY the database delivers to the session's LISTENs.
 */
export class PgliteThread {
  readonly #worker: Worker;
  readonly #pending = new Map<
    number,
    { resolve: (bytes?: Uint8Array) => void; reject: (error: Error) => void }
  >();
  readonly #listeners = new Set<(channel: string, payload: string) => void>();
  #nextId = 1;
  #nextConnection = 1;
  #closed = false;
  readonly waitReady: Promise<void>;

  constructor(dataDir: string) {
    this.#worker = new Worker(workerFile, { workerData: { dataDir } });
    this.waitReady = new Promise((resolve, reject) => {
      this.#worker.once("error", reject);
      this.#worker.on("message", (message: FromWorker) => {
        switch (message.type) {
          case "ready":
            this.#worker.unref();
            resolve();
            break;
          case "failed":
            reject(new Error(`PGlite did not start: ${message.message}`));
            break;
          case "notification":
            for (const listener of this.#listeners) listener(message.channel, message.payload);
            break;
          default:
            this.#settle(message);
        }
      });
    });
    const fail = (error: Error) => {
      for (const { reject } of this.#pending.values()) reject(error);
      this.#pending.clear();
    };
    this.#worker.on("error", fail);
    this.#worker.on("exit", () => {
      this.#closed = true;
      fail(new Error("PGlite's thread has ended"));
    });
  }

  #settle(message: Extract<FromWorker, { id: number }>) {
    const waiting = this.#pending.get(message.id);
    if (!waiting) return;
    this.#pending.delete(message.id);
    if (this.#pending.size === 0) this.#worker.unref();
    if (message.type === "error") waiting.reject(new Error(message.message));
    else waiting.resolve(message.type === "protocol" ? message.bytes : undefined);
  }

  #call(message: ToWorker, transfer: ArrayBuffer[] = []) {
    return new Promise<Uint8Array | undefined>((resolve, reject) => {
      // The thread keeps the process alive only while it has work: a script
      // that is done exits as it did with PGlite in process.
      if (this.#pending.size === 0) this.#worker.ref();
      this.#pending.set(message.id, { resolve, reject });
      this.#worker.postMessage(message, transfer);
    });
  }

  /**
   * One protocol exchange: messages in, the backend's messages out, parsed.
   * `bytes` is handed over to the worker (its memory moves, no copy): it
   * must own its ArrayBuffer, never a view into Node's shared buffer pool.
   */
  async exchange(connection: number, bytes: Uint8Array): Promise<BackendMessage[]> {
    if (this.#closed) throw new Error("PGlite is closed");
    const answer = await this.#call({ type: "protocol", id: this.#nextId++, connection, bytes }, [
      bytes.buffer as ArrayBuffer,
    ]);
    const messages: BackendMessage[] = [];
    if (answer) {
      const buffer = Buffer.from(answer.buffer, answer.byteOffset, answer.byteLength);
      new Parser().parse(buffer, (message) => messages.push(message));
    }
    return messages;
  }

  /**
   * A node-postgres pool over this thread. PGlite is one session, but the
   * pool has several connections, so that the queries of concurrent
   * requests are already waiting in the worker when it finishes one; the
   * worker runs them one at a time and keeps a transaction's statements
   * together (see the worker). Connections are kept open; a client the pool
   * drops (after a failed query) ends its connection, and the worker rolls
   * back a transaction it left open.
   */
  pool() {
    const thread = this;
    class ThreadClient extends pg.Client {
      constructor(config: pg.ClientConfig = {}) {
        super({ ...config, connection: new ThreadConnection(thread) } as pg.ClientConfig);
      }
    }
    return new pg.Pool({ Client: ThreadClient, max: 10, idleTimeoutMillis: 0 });
  }

  /** A number for a new connection: the worker tells transactions apart by it. */
  newConnection() {
    return this.#nextConnection++;
  }

  /** A connection closed: a transaction it left open is rolled back. */
  async endConnection(connection: number) {
    if (!this.#closed) await this.#call({ type: "end", id: this.#nextId++, connection });
  }

  onNotification(listener: (channel: string, payload: string) => void) {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  get closed() {
    return this.#closed;
  }

  async close() {
    if (this.#closed) return;
    this.#closed = true;
    this.#listeners.clear();
    await this.#call({ type: "close", id: this.#nextId++ }).catch(() => {});
    await this.#worker.terminate();
  }
}

// Found from the working directory, as the migrations are: the built server
// bundles this module into build/server, where the worker file is not.
const workerFile = path.resolve(process.cwd(), "server/db/pglite-thread.worker.ts");

/**
 * What node-postgres's Client asks of its connection, over the thread. It
 * gathers a query's messages (parse, bind, describe, execute) and sends them
 * in one exchange at sync or flush: one round trip to the worker per query.
 * The shape follows PGlite's own node-postgres adapter, which sends each
 * message on its own; the messages are written and read by pg's own
 * protocol package, as on a socket.
 */
class ThreadConnection extends EventEmitter {
  _connecting = false;
  readonly stream = { destroy: () => this.end() };
  parsedStatements = {};
  submittedNamedStatements = {};
  readonly #thread: PgliteThread;
  readonly #id: number;
  #outgoing: Uint8Array[] = [];
  #chain: Promise<void> = Promise.resolve();
  #emitMessages = false;

  constructor(thread: PgliteThread) {
    super();
    this.#thread = thread;
    this.#id = thread.newConnection();
    this.on("newListener", (event) => {
      if (event === "message") this.#emitMessages = true;
    });
  }

  async connect(_port: number, _host: string) {
    this._connecting = true;
    await this.#thread.waitReady;
    process.nextTick(() => this.emit("readyForQuery"));
  }

  #queue(bytes: Uint8Array) {
    this.#outgoing.push(bytes);
  }

  #send() {
    const parts = this.#outgoing;
    this.#outgoing = [];
    const bytes = concat(parts);
    this.#chain = this.#chain.then(async () => {
      let messages: BackendMessage[];
      try {
        messages = await this.#thread.exchange(this.#id, bytes);
      } catch (error) {
        this.emit("error", error);
        return;
      }
      // As from a socket: a handler's exception is not the connection's error
      // (it is thrown, uncaught, and the next exchange still runs).
      try {
        for (const message of messages) {
          if (this.#emitMessages) this.emit("message", message);
          this.emit(message.name === "error" ? "errorMessage" : message.name, message);
        }
      } catch (error) {
        setImmediate(() => {
          throw error;
        });
      }
    });
  }

  query(text: string) {
    this.#queue(serialize.query(text));
    this.#send();
  }
  parse(query: Parameters<typeof serialize.parse>[0]) {
    this.#queue(serialize.parse(query));
  }
  bind(config: Parameters<typeof serialize.bind>[0]) {
    this.#queue(serialize.bind(config));
  }
  describe(message: Parameters<typeof serialize.describe>[0]) {
    this.#queue(serialize.describe(message));
  }
  execute(config: Parameters<typeof serialize.execute>[0]) {
    this.#queue(serialize.execute(config));
  }
  close(message: Parameters<typeof serialize.close>[0]) {
    this.#queue(serialize.close(message));
  }
  flush() {
    this.#queue(serialize.flush());
    this.#send();
  }
  sync() {
    this.#queue(serialize.sync());
    this.#send();
  }
  end() {
    this.#chain = this.#chain.then(async () => {
      await this.#thread.endConnection(this.#id).catch(() => {});
      this.emit("end");
    });
  }
  // No authentication, TLS, cancellation or COPY: PGlite is in this process.
  requestSsl() {}
  startup() {}
  cancel() {}
  password() {}
  ref() {}
  unref() {}
}

/** The parts in one new ArrayBuffer of their own (transferable; see `exchange`). */
function concat(parts: Uint8Array[]) {
  const all = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    all.set(part, offset);
    offset += part.length;
  }
  return all;
}
