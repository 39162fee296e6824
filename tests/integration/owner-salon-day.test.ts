import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { confirmBooking, holdSlot } from "../../server/bookings/booking.server";
import { salonActor } from "../../server/bookings/booking-history.server";
import { bookings, salonOwners, users } from "../../server/db/schema";
import { markNoShow } from "../../server/owner/booking-actions.server";
import { bookingDetailPage } from "../../server/owner/booking-detail-page.server";
import { bookingsCsv } from "../../server/owner/bookings-export.server";
import { buildLedger, type LedgerDay } from "../../server/owner/ledger.server";
import { salonBookingSchema } from "../../server/owner/salon-entries.schema";
import { enterSalonBooking } from "../../server/owner/salon-entries.server";
import { todayView } from "../../server/owner/today.server";
import { type SalonAccess, salonAccessFor } from "../../server/salon-access/salon-access.server";
import { apiUser, createApiTestApp } from "../support/api-client";
import { bookingClient } from "../support/booking-client";
import { buildSalonWithStaff, buildUser } from "../support/builders";
import { withTestDatabase } from "../support/test-database";

/**
 * The salon's day as a receptionist lives it (issue 38, section 1, points
 * 1, 4 and 5): when 来店 and 施術完了 may be recorded and undone, the words
 * a booking's state reads in every back-office view, and what each
 * cancellation reason records. A fixed clock throughout.
 */

const database = withTestDatabase();

/** Thursday 3 December 2026, 09:00 in Tokyo. */
const NOW = new Date("2026-12-03T09:00:00+09:00");
const DAY = "2026-12-03";
const at = (local: string) => new Date(`${local}:00+09:00`);

let counter = 0;

/** A salon (10:00–20:00, two stylists, a 60-minute カット), its owner and their access. */
async function scene(options: { requiresApproval?: boolean } = {}) {
  const { salon, stylists, menu } = await buildSalonWithStaff(database.db, {
    staffCount: 2,
    settings: { requiresApproval: options.requiresApproval ?? false },
  });
  const owner = await buildUser(database.db, { role: "owner" });
  await database.db.insert(salonOwners).values({ salonId: salon.id, userId: owner.id });
  const access = (await salonAccessFor(
    database.db,
    {
      id: owner.id,
      email: owner.email,
      name: owner.name,
      role: "owner",
      emailVerified: true,
      profile: null,
    },
    salon.id,
  )) as SalonAccess;
  const [first, second] = stylists;
  if (!first || !second || !access) throw new Error("no scene");
  return { salon, menu, owner, first, second, access, actor: salonActor(owner.id) };
}

type Scene = Awaited<ReturnType<typeof scene>>;

/** A visitor's web booking, made through the booking transactions at `now`. */
async function webBooking(s: Scene, start: Date, now = at("2026-12-01T10:00")) {
  const visitor = await buildUser(database.db);
  const hold = await holdSlot(database.db, {
    ...bookingClient(database.db),
    salonId: s.salon.id,
    menuIds: [s.menu.id],
    staffId: s.first.id,
    start,
    userId: visitor.id,
    now,
  });
  counter += 1;
  const booking = await confirmBooking(database.db, {
    ...bookingClient(database.db),
    holdId: hold.id,
    userId: visitor.id,
    customer: {
      name: "予約 花子",
      kana: "よやく はなこ",
      phone: "090-1234-5678",
      email: `salon-day-${counter}@example.jp`,
    },
    notes: "",
    idempotencyKey: null,
    now,
  });
  return { booking, visitor };
}

const detailOf = async (s: Scene, bookingId: string, now = NOW) => {
  const page = await bookingDetailPage(
    database.db,
    s.access,
    bookingId,
    new URL("https://salon.example.jp/"),
    now,
  );
  if (!page) throw new Error("no page");
  return page.booking;
};

async function csvText(s: Scene, from = DAY, to = DAY) {
  const stream = await bookingsCsv(database.db, s.access, { from, to }, NOW);
  return new Response(stream).text();
}

describe("status words (point 4)", () => {
  it("a pending booking reads 仮予約（承認待ち）, never 予約確定, in 要確認, the ledger, the detail, the CSV and the API", async () => {
    const s = await scene({ requiresApproval: true });
    // Booked at 08:30 today for 14:00: a new booking, still in 要確認 at 09:00.
    const { booking } = await webBooking(s, at(`${DAY}T14:00`), at(`${DAY}T08:30`));
    expect(booking.approval).toBe("pending");
    const pending = "仮予約（承認待ち）";

    const today = await todayView(database.db, s.salon, NOW);
    expect(today.attention.map((n) => [n.kind, n.statusLabel])).toEqual([["created", pending]]);
    expect(today.upcoming.map((b) => b.statusLabel)).toEqual([pending]);

    const ledger = (await buildLedger(database.db, s.salon, DAY, NOW)) as LedgerDay;
    const entries = ledger.columns.flatMap((c) => c.entries);
    expect(entries.map((e) => e.statusLabel)).toEqual([pending]);

    expect((await detailOf(s, booking.id)).statusLabel).toBe(pending);
    expect(await csvText(s)).toContain(`,${pending},`);

    const server = createApiTestApp(database, { now: () => NOW });
    try {
      const user = await apiUser(server.app);
      await database.db
        .update(users)
        .set({ emailVerified: true, role: "owner" })
        .where(eq(users.id, user.userId));
      await database.db.insert(salonOwners).values({ salonId: s.salon.id, userId: user.userId });
      const answer = await user.request(`/api/owner/salons/${s.salon.id}/bookings/${booking.id}`);
      expect(answer.status).toBe(200);
      const { data } = (await answer.json()) as { data: { statusLabel: string } };
      expect(data.statusLabel).toBe(pending);
      const todayAnswer = await user.request(`/api/owner/salons/${s.salon.id}/today`);
      const todayJson = (await todayAnswer.json()) as {
        data: { attention: { statusLabel: string }[] };
      };
      expect(todayJson.data.attention.map((n) => n.statusLabel)).toEqual([pending]);
    } finally {
      server.close();
    }
  });

  it("an arrived booking reads 来店済み and a completed one 施術完了, alike in the ledger, the detail and the CSV", async () => {
    const s = await scene();
    const { booking } = await webBooking(s, at(`${DAY}T10:00`));
    await database.db
      .update(bookings)
      .set({ arrivedAt: at(`${DAY}T09:50`) })
      .where(eq(bookings.id, booking.id));
    const ledger = (await buildLedger(database.db, s.salon, DAY, NOW)) as LedgerDay;
    expect(ledger.columns.flatMap((c) => c.entries.map((e) => e.statusLabel))).toEqual([
      "来店済み",
    ]);
    expect((await detailOf(s, booking.id)).statusLabel).toBe("来店済み");
    await database.db
      .update(bookings)
      .set({ status: "completed" })
      .where(eq(bookings.id, booking.id));
    const after = (await buildLedger(database.db, s.salon, DAY, NOW)) as LedgerDay;
    expect(after.columns.flatMap((c) => c.entries.map((e) => e.statusLabel))).toEqual(["施術完了"]);
    expect((await detailOf(s, booking.id)).statusLabel).toBe("施術完了");
    expect(await csvText(s)).toContain(",施術完了,");
  });

  it("a walk-in starts as 来店済み and never offers or takes 無断キャンセル", async () => {
    const s = await scene();
    const now = at(`${DAY}T11:02`);
    const walkIn = await enterSalonBooking(
      database.db,
      s.salon.id,
      salonBookingSchema.parse({
        source: "walk_in",
        staffId: s.first.id,
        date: DAY,
        time: "11:00",
        menuIds: [s.menu.id],
        customer: { name: "来店 三郎", kana: "らいてん さぶろう", phone: "090-3333-4444" },
      }),
      { userId: s.owner.id },
      now,
    );
    expect(walkIn.arrivedAt).toEqual(now);
    const later = at(`${DAY}T11:40`);
    const detail = await detailOf(s, walkIn.id, later);
    expect(detail.statusLabel).toBe("来店済み");
    expect(detail.can.noShow).toBe(false);
    await expect(
      markNoShow(
        database.db,
        { salonId: s.salon.id, bookingId: walkIn.id, version: walkIn.version },
        s.actor,
        later,
      ),
    ).rejects.toMatchObject({ status: 422 });
    // A walk-in written before arrivals were recorded for them is refused all the same.
    await database.db.update(bookings).set({ arrivedAt: null }).where(eq(bookings.id, walkIn.id));
    await expect(
      markNoShow(
        database.db,
        { salonId: s.salon.id, bookingId: walkIn.id, version: walkIn.version },
        s.actor,
        later,
      ),
    ).rejects.toMatchObject({ status: 422 });
  });

  it("the ledger's cancellations are titled with the day they show", async () => {
    const s = await scene();
    const today = (await buildLedger(database.db, s.salon, DAY, NOW)) as LedgerDay;
    expect(today.cancelledTitle).toBe("本日のキャンセル");
    const saturday = (await buildLedger(database.db, s.salon, "2026-11-28", NOW)) as LedgerDay;
    expect(saturday.cancelledTitle).toBe("11月28日(土)のキャンセル");
  });
});
