import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { jobs, mailOutbox } from "../../server/db/schema";
import {
  createJobWorker,
  enqueue,
  type JobHandler,
  startJobWorker,
} from "../../server/jobs/queue.server";
import { createLogger } from "../../server/logger";
import { createMailer } from "../../server/mail/mailer";
import { withTestDatabase } from "../support/test-database";

const database = withTestDatabase();

const T0 = new Date("2026-12-01T00:00:00Z");
const later = (seconds: number) => new Date(T0.getTime() + seconds * 1000);
const log = createLogger("silent");

const jobByKey = async (dedupeKey: string) => {
  const [row] = await database.db.select().from(jobs).where(eq(jobs.dedupeKey, dedupeKey));
  return row;
};

/** A handler that mails through the job's transaction and fails its first `failures` runs. */
function flakyMailHandler(to: string, failures: number): JobHandler {
  let runs = 0;
  return async ({ tx }) => {
    await createMailer(tx, { from: "test@example.jp" }).send({
      to,
      subject: "テスト",
      text: "本文",
      html: "<p>本文</p>",
    });
    runs++;
    if (runs <= failures) throw new Error(`failure ${runs}`);
  };
}

describe("enqueue", () => {
  it("adds a job once per dedupe key", async () => {
    const job = { kind: "noop", payload: {}, runAt: T0, dedupeKey: "dedupe:1" };
    expect(await enqueue(database.db, job)).toBe(true);
    expect(await enqueue(database.db, { ...job, runAt: later(60) })).toBe(false);
    expect(await database.db.$count(jobs, eq(jobs.dedupeKey, "dedupe:1"))).toBe(1);
    expect((await jobByKey("dedupe:1"))?.runAt).toEqual(T0);
  });
});

describe("the job worker", () => {
  it("rolls a failed run's writes back and retries after a growing delay", async () => {
    const to = "retry@example.jp";
    await enqueue(database.db, { kind: "retry", payload: {}, runAt: T0, dedupeKey: "retry:1" });
    const handlers = { retry: flakyMailHandler(to, 2) };
    const worker = (at: Date) =>
      createJobWorker({ db: database.db, handlers, log, now: () => at, retryBaseMs: 30_000 });
    const mails = () => database.db.$count(mailOutbox, eq(mailOutbox.to, to));

    expect(await worker(T0).runOnce()).toBe(0);
    expect(await mails()).toBe(0);
    expect(await jobByKey("retry:1")).toMatchObject({
      attempts: 1,
      runAt: later(30),
      lockedUntil: null,
      doneAt: null,
      lastError: "failure 1",
    });

    expect(await worker(later(29)).runOnce()).toBe(0);
    expect((await jobByKey("retry:1"))?.attempts).toBe(1);

    expect(await worker(later(30)).runOnce()).toBe(0);
    expect((await jobByKey("retry:1"))?.runAt).toEqual(later(30 + 60));

    expect(await worker(later(90)).runOnce()).toBe(1);
    expect(await mails()).toBe(1);
    expect(await jobByKey("retry:1")).toMatchObject({
      attempts: 3,
      doneAt: later(90),
      lastError: null,
    });

    expect(await worker(later(1000)).runOnce()).toBe(0);
    expect(await mails()).toBe(1);
  });

  it("gives up after the last attempt and keeps the error", async () => {
    await enqueue(database.db, { kind: "doomed", payload: {}, runAt: T0, dedupeKey: "doomed:1" });
    const handlers = {
      doomed: async () => {
        throw new Error("SMTP設定がありません");
      },
    };
    const worker = (at: Date) =>
      createJobWorker({ db: database.db, handlers, log, now: () => at, maxAttempts: 2 });
    await worker(T0).runOnce();
    await worker(later(3600)).runOnce();
    expect(await jobByKey("doomed:1")).toMatchObject({
      attempts: 2,
      doneAt: later(3600),
      lastError: "SMTP設定がありません",
    });
  });

  it("leaves jobs of kinds it has no handler for, and jobs not yet due", async () => {
    await enqueue(database.db, { kind: "other", payload: {}, runAt: T0, dedupeKey: "other:1" });
    await enqueue(database.db, {
      kind: "mine",
      payload: {},
      runAt: later(60),
      dedupeKey: "mine:1",
    });
    const ran: string[] = [];
    const worker = createJobWorker({
      db: database.db,
      handlers: { mine: async ({ job }) => void ran.push(job.dedupeKey ?? "") },
      log,
      now: () => later(59),
    });
    expect(await worker.runOnce()).toBe(0);
    expect(await jobByKey("other:1")).toMatchObject({ attempts: 0, lockedUntil: null });
    expect(ran).toEqual([]);
  });

  it("runs in the background once started, and stops after the pass in progress", async () => {
    await enqueue(database.db, { kind: "loop", payload: { n: 1 }, runAt: T0, dedupeKey: "loop:1" });
    let ran: (payload: unknown) => void = () => undefined;
    const done = new Promise((resolve) => {
      ran = resolve;
    });
    const loop = startJobWorker({
      db: database.db,
      handlers: { loop: async ({ job }) => ran(job.payload) },
      log,
      now: () => later(1),
    });
    try {
      expect(await done).toEqual({ n: 1 });
    } finally {
      await loop.stop();
    }
    expect((await jobByKey("loop:1"))?.doneAt).toEqual(later(1));
  });
});
