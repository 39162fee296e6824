import { sql } from "drizzle-orm";
import { check, index, integer, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { createdAt, id } from "./common";

/**
 * A job queue kept in the database (booking reminders first), claimed by
 * workers with `FOR UPDATE SKIP LOCKED` and a lease (`locked_until`), so it
 * survives restarts, runs on PGlite and PostgreSQL alike, and two app
 * servers never take the same job. `dedupe_key` (e.g. "reminder:<booking
 * id>") makes enqueueing idempotent. See docs/decisions/0009-booking-data-model.md;
 * the worker is written separately.
 */
export const jobs = pgTable(
  "jobs",
  {
    id: id(),
    /** The salon the job is about, when there is one (distribution by salon). */
    salonId: uuid("salon_id"),
    kind: text("kind").notNull(),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull().default({}),
    runAt: timestamp("run_at", { withTimezone: true }).notNull(),
    attempts: integer("attempts").notNull().default(0),
    /** A worker's lease: others skip the job until this passes (a crashed worker's job comes back). */
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
    doneAt: timestamp("done_at", { withTimezone: true }),
    lastError: text("last_error"),
    dedupeKey: text("dedupe_key").unique(),
    createdAt: createdAt(),
  },
  (t) => [
    index("jobs_due_idx").on(t.runAt).where(sql`${t.doneAt} is null`),
    check("jobs_attempts_nonnegative", sql`${t.attempts} >= 0`),
  ],
);
