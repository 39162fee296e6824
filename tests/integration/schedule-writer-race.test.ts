import { and, eq, gt, or } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { toLocal } from "../../common/local-time";
import { workingIntervals } from "../../server/bookings/availability";
import { loadSalonSchedule } from "../../server/bookings/availability-data.server";
import { confirmBooking, holdSlot } from "../../server/bookings/booking.server";
import { salonActor } from "../../server/bookings/booking-history.server";
import { rescheduleBooking } from "../../server/bookings/reschedule.server";
import { bookings, salons, scheduleRequests, waitlistEntries } from "../../server/db/schema";
import { DomainError } from "../../server/errors/domain-error";
import { moveBooking } from "../../server/owner/booking-actions.server";
import { salonBookingSchema } from "../../server/owner/salon-entries.schema";
import { enterSalonBooking } from "../../server/owner/salon-entries.server";
import { approveScheduleRequest } from "../../server/owner/schedule-requests.server";
import {
  addSalonClosure,
  saveOpeningHours,
  setHolidayRule,
} from "../../server/owner/schedules.server";
import type { SalonAccess } from "../../server/salon-access/salon-access.server";
import { addStaffException } from "../../server/salon-editor/salon-staff-exceptions.server";
import { matchWaitlist } from "../../server/waitlist/waitlist-matcher.server";
import { bookingClient } from "../support/booking-client";
import { buildSalonWithStaff, buildUser } from "../support/builders";
import { transactionsTakeTurns, withTestDatabase } from "../support/test-database";

/**
 * Issue 38, §4.1: every schedule writer against every booking path, at
 * once. A writer takes its stylists' rows FOR UPDATE (guardStranding) and
 * every booking path takes them FOR SHARE before it reads the schedule or
 * touches a booking row (decision 0053), so whichever comes second sees the
 * first: the booking is refused, or the change refuses the booking it would
 * strand (409), or releases the hold it leaves outside. Afterwards no
 * confirmed booking and no live hold lies outside working time, and neither
 * side failed with anything but a 4xx.
 *
 * On PostgreSQL each pair runs ROUNDS rounds with both sides started
 * together (alternating which starts first); PGlite runs one transaction at
 * a time, so there each pair runs twice, once in each order.
 */
const database = withTestDatabase();

const ROUNDS = 20;
/** A fixed clock: Monday 4 January 2027, 09:00 in Tokyo. */
const NOW = new Date("2027-01-04T09:00:00+09:00");
/** 成人の日 (a Monday and a public holiday): every writer below closes 14:00 on it. */
const DAY = "2027-01-11";
/** A Tuesday, no holiday: where a booking starts that a path moves onto DAY. */
const OTHER_DAY = "2027-01-12";
const ZONE = "Asia/Tokyo";
const at = (date: string, time: string) => new Date(`${date}T${time}:00+09:00`);
const customer = {
  name: "予約 花子",
  kana: "よやく はなこ",
  phone: "090-1234-5678",
  email: "hanako@example.jp",
};

type Scene = Awaited<ReturnType<typeof scene>>;

/** A salon open 10:00–20:00 every day, one stylist working then, a 60-minute cut, its owner and a visitor. */
async function scene() {
  // A short booking window: each change refreshes the search's free days over it.
  const { salon, stylists, menu } = await buildSalonWithStaff(database.db, {
    settings: { bookingWindowDays: 10 },
  });
  const [stylist] = stylists;
  if (!stylist) throw new Error("no stylist");
  const owner = await buildUser(database.db, { role: "owner" });
  const visitor = await buildUser(database.db);
  return { salon, stylist, menu, owner, visitor };
}

async function salonVersion(salonId: string) {
  const [row] = await database.db
    .select({ version: salons.version })
    .from(salons)
    .where(eq(salons.id, salonId));
  return row?.version ?? 0;
}

async function holdAt(s: Scene, start: Date) {
  return holdSlot(database.db, {
    ...bookingClient(database.db),
    salonId: s.salon.id,
    menuIds: [s.menu.id],
    staffId: s.stylist.id,
    start,
    userId: s.visitor.id,
    now: NOW,
  });
}

const confirm = (s: Scene, holdId: string) =>
  confirmBooking(database.db, {
    ...bookingClient(database.db),
    holdId,
    userId: s.visitor.id,
    customer,
    notes: "",
    idempotencyKey: null,
    now: NOW,
  });

/** Confirmed bookings and live holds of the salon outside their stylist's working time. */
async function outsideWorkingTime(salonId: string) {
  const live = await database.db
    .select()
    .from(bookings)
    .where(
      and(
        eq(bookings.salonId, salonId),
        eq(bookings.kind, "booking"),
        or(
          eq(bookings.status, "confirmed"),
          and(eq(bookings.status, "held"), gt(bookings.holdExpiresAt, NOW)),
        ),
      ),
    );
  const schedule = await loadSalonSchedule(database.db, { salonId, from: DAY, to: OTHER_DAY });
  if (!schedule) throw new Error("no schedule");
  return live.filter((booking) => {
    const date = toLocal(booking.startsAt, ZONE).date;
    const intervals = workingIntervals(schedule, date).get(booking.staffId) ?? [];
    return !intervals.some(
      (w) => w.start <= booking.startsAt.getTime() && booking.endsAt.getTime() <= w.end,
    );
  });
}

type Writer = {
  name: string;
  /** Anything the writer needs made before the round (a stylist's request). */
  prepare?: (s: Scene) => Promise<Record<string, unknown>>;
  /** The change that takes DAY 14:00 out of the stylist's working time. */
  write: (s: Scene, version: number, prepared: Record<string, unknown>) => Promise<unknown>;
};

const edit = (s: Scene, version: number) => ({
  salonId: s.salon.id,
  version,
  actor: { id: s.owner.id },
  now: NOW,
  timeZone: ZONE,
});

const writers: Writer[] = [
  {
    name: "a stylist's day off",
    write: (s, version) =>
      addStaffException(database.db, edit(s, version), s.stylist.id, {
        date: DAY,
        kind: "closed",
        startsAt: null,
        endsAt: null,
        note: "",
      }),
  },
  {
    name: "a stylist's changed hours",
    write: (s, version) =>
      addStaffException(database.db, edit(s, version), s.stylist.id, {
        date: DAY,
        kind: "hours",
        startsAt: "10:00",
        endsAt: "12:00",
        note: "",
      }),
  },
  {
    name: "a salon closure (臨時休業)",
    write: (s, version) => addSalonClosure(database.db, edit(s, version), { date: DAY, note: "" }),
  },
  {
    name: "the opening hours (Mondays closed)",
    write: (s, version) =>
      saveOpeningHours(
        database.db,
        edit(s, version),
        [0, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, startsAt: "10:00", endsAt: "20:00" })),
      ),
  },
  {
    name: "the holiday rule (祝日は休業)",
    write: (s, version) => setHolidayRule(database.db, edit(s, version), true),
  },
  {
    name: "an approved stylist's request for the day off",
    prepare: async (s) => {
      const [request] = await database.db
        .insert(scheduleRequests)
        .values({
          salonId: s.salon.id,
          staffId: s.stylist.id,
          requestedBy: s.owner.id,
          date: DAY,
          kind: "closed",
          note: "",
        })
        .returning();
      return { request };
    },
    write: (s, _version, prepared) => {
      const request = prepared.request as typeof scheduleRequests.$inferSelect;
      const access = {
        user: { id: s.owner.id },
        salon: { id: s.salon.id, timeZone: ZONE },
        role: "owner",
        staffId: null,
      } as unknown as SalonAccess;
      return approveScheduleRequest(database.db, access, request.id, request.version, {}, NOW);
    },
  },
];

type Path = {
  name: string;
  /** What exists before the round (a hold to confirm, a booking to move). */
  prepare?: (s: Scene) => Promise<Record<string, unknown>>;
  /** The attempt to book DAY 14:00 with the stylist. */
  book: (s: Scene, prepared: Record<string, unknown>) => Promise<unknown>;
};

const bookOtherDay = async (s: Scene) => {
  const hold = await holdAt(s, at(OTHER_DAY, "14:00"));
  return { booking: await confirm(s, hold.id) };
};

const paths: Path[] = [
  {
    name: "a web hold",
    book: (s) => holdAt(s, at(DAY, "14:00")),
  },
  {
    name: "confirming a hold made before",
    prepare: async (s) => ({ hold: await holdAt(s, at(DAY, "14:00")) }),
    book: (s, prepared) => confirm(s, (prepared.hold as { id: string }).id),
  },
  {
    name: "the customer's 予約変更",
    prepare: bookOtherDay,
    book: (s, prepared) =>
      rescheduleBooking(database.db, {
        ...bookingClient(database.db),
        bookingId: (prepared.booking as { id: string }).id,
        userId: s.visitor.id,
        start: at(DAY, "14:00"),
        now: NOW,
      }),
  },
  {
    name: "the salon's phone entry",
    book: (s) =>
      enterSalonBooking(
        database.db,
        s.salon.id,
        salonBookingSchema.parse({
          source: "phone",
          staffId: s.stylist.id,
          date: DAY,
          time: "14:00",
          menuIds: [s.menu.id],
          customer: { name: "電話 太郎", kana: "でんわ たろう", phone: "090-1111-2222" },
        }),
        { userId: s.owner.id },
        NOW,
      ),
  },
  {
    name: "the salon's move",
    prepare: bookOtherDay,
    book: (s, prepared) => {
      const booking = prepared.booking as { id: string; version: number };
      return moveBooking(
        database.db,
        {
          salonId: s.salon.id,
          bookingId: booking.id,
          version: booking.version,
          date: DAY,
          time: "14:00",
          staffId: s.stylist.id,
          menuIds: [s.menu.id],
          confirmOutsideSchedule: false,
        },
        salonActor(s.owner.id),
        NOW,
      );
    },
  },
  {
    name: "a waiting-list offer",
    prepare: async (s) => {
      await database.db.insert(waitlistEntries).values({
        salonId: s.salon.id,
        userId: s.visitor.id,
        date: DAY,
        windowStart: 14 * 60,
        windowEnd: 15 * 60,
        menuIds: [s.menu.id],
        staffId: s.stylist.id,
      });
      return {};
    },
    book: (s) =>
      database.db.transaction((tx) =>
        matchWaitlist(tx as never, { salonId: s.salon.id, date: DAY, now: NOW, quietHours: false }),
      ),
  },
];

type Ending = { ok: boolean; error?: unknown };

async function ending(work: () => Promise<unknown>): Promise<Ending> {
  try {
    await work();
    return { ok: true };
  } catch (error) {
    return { ok: false, error };
  }
}

/** A refusal the person can act on (a DomainError of 4xx), never a 5xx or a raw database error. */
const isServerError = (e: Ending) =>
  !e.ok && !(e.error instanceof DomainError && e.error.status < 500);

const pairs = writers.flatMap((writer) => paths.map((path) => ({ writer, path })));

type Round = {
  s: Scene;
  pathReady: Record<string, unknown>;
  writerReady: Record<string, unknown>;
  version: number;
};

/** A round's salon of its own, with what the path and the writer need made before. */
async function prepare(writer: Writer, path: Path): Promise<Round> {
  const s = await scene();
  const pathReady = (await path.prepare?.(s)) ?? {};
  const writerReady = (await writer.prepare?.(s)) ?? {};
  return { s, pathReady, writerReady, version: await salonVersion(s.salon.id) };
}

/** One round: the change and the booking at once, then what they left. */
async function race(writer: Writer, path: Path, r: Round, index: number): Promise<string[]> {
  const change = () => writer.write(r.s, r.version, r.writerReady);
  const attempt = () => path.book(r.s, r.pathReady);
  // Both at once; which is asked first alternates.
  const [changed, booked] =
    index % 2 === 0
      ? await Promise.all([ending(change), ending(attempt)])
      : (await Promise.all([ending(attempt), ending(change)])).reverse();
  const failures: string[] = [];
  for (const [side, e] of [
    ["change", changed],
    ["booking", booked],
  ] as const) {
    if (e && isServerError(e)) failures.push(`round ${index}: ${side} failed: ${String(e.error)}`);
  }
  const outside = await outsideWorkingTime(r.s.salon.id);
  if (outside.length > 0) {
    failures.push(
      `round ${index}: ${outside.map((b) => `${b.status} ${b.startsAt.toISOString()}`).join(", ")} outside working time`,
    );
  }
  return failures;
}

/** Rounds raced at once (each its own salon), few enough that each finds its two connections free. */
const BATCH = 4;

describe("a schedule change and a booking at the same time", () => {
  it.each(pairs)("$writer.name against $path.name", async ({ writer, path }) => {
    const count = transactionsTakeTurns ? 2 : ROUNDS;
    const rounds = await Promise.all(Array.from({ length: count }, () => prepare(writer, path)));
    const failures: string[] = [];
    for (let from = 0; from < count; from += BATCH) {
      const batch = rounds.slice(from, from + BATCH).map((r, i) => race(writer, path, r, from + i));
      failures.push(...(await Promise.all(batch)).flat());
    }
    expect(failures).toEqual([]);
  });
});
