import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as ownerStaffRoute from "../../app/routes/owner.salons.$id.staff";
import { confirmBooking, getBookingForUser, holdSlot } from "../../server/bookings/booking.server";
import { salonActor } from "../../server/bookings/booking-history.server";
import { bookingJobHandlers } from "../../server/bookings/booking-jobs.server";
import { loadFlowSelection } from "../../server/bookings/pages/booking-flow.server";
import { thanksView } from "../../server/bookings/pages/thanks-page.server";
import {
  auditLog,
  bookings,
  couponMenus,
  coupons,
  mailOutbox,
  salonOwners,
  staff,
  users,
} from "../../server/db/schema";
import { createJobWorker } from "../../server/jobs/queue.server";
import { createLogger } from "../../server/logger";
import { moveBooking } from "../../server/owner/booking-actions.server";
import { salonBookingSchema } from "../../server/owner/salon-entries.schema";
import { enterSalonBooking } from "../../server/owner/salon-entries.server";
import { getSalonDetail } from "../../server/salons/salon-detail";
import { setRole } from "../support/accounts";
import { apiUser, createApiTestApp } from "../support/api-client";
import { bookingClient } from "../support/booking-client";
import { buildMenu, buildSalonWithStaff, buildUser } from "../support/builders";
import { createRouteApp, postForm, signedInMember } from "../support/route-app";
import { withTestDatabase } from "../support/test-database";

/**
 * 指名料 (issue 29, point 3; decision 0047): a fee per stylist, set on the
 * stylist form, shown to the visitor, and added to the price when the
 * visitor chooses that stylist — never for 指名なし, and never discounted.
 */
const database = withTestDatabase();
let env: ReturnType<typeof createRouteApp>;

beforeAll(() => {
  env = createRouteApp(database, [{ path: "/owner/salons/:id/staff", module: ownerStaffRoute }]);
});

/** Tuesday 1 December 2026, 09:00 in Tokyo. */
const NOW = new Date("2026-12-01T09:00:00+09:00");
const at = (local: string) => new Date(`${local}:00+09:00`);

/** A salon whose first stylist charges `fee` (the menu: カット, 5,500 yen, 60 minutes). */
async function salonWithFee(fee: number) {
  const built = await buildSalonWithStaff(database.db, { staffCount: 2 });
  const [chosen] = built.stylists;
  if (!chosen) throw new Error("no stylist");
  await database.db.update(staff).set({ nominationFee: fee }).where(eq(staff.id, chosen.id));
  return { ...built, chosen };
}

async function hold(
  salonId: string,
  menuId: string,
  staffId: string | null,
  start: string,
  couponId: string | null = null,
) {
  const visitor = await buildUser(database.db);
  const held = await holdSlot(database.db, {
    ...bookingClient(database.db),
    salonId,
    menuIds: [menuId],
    staffId,
    start: at(start),
    userId: visitor.id,
    couponId,
    now: NOW,
  });
  return { held, visitor };
}

describe("the 指名料 in the price", () => {
  it("adds the chosen stylist's fee to the total, and nothing for 指名なし", async () => {
    const { salon, menu, chosen } = await salonWithFee(1100);
    const named = await hold(salon.id, menu.id, chosen.id, "2026-12-03T11:00");
    expect(named.held).toMatchObject({ staffId: chosen.id, nominationFee: 1100, totalPrice: 6600 });

    // 指名なし: the server assigns a stylist (the first, by the staff order), and no fee.
    const any = await hold(salon.id, menu.id, null, "2026-12-03T14:00");
    expect(any.held.staffRequested).toBe(false);
    expect(any.held).toMatchObject({ nominationFee: 0, totalPrice: 5500 });
  });

  it("discounts the menus only: the coupon never reduces the fee", async () => {
    const { salon, menu, chosen } = await salonWithFee(1100);
    const [coupon] = await database.db
      .insert(coupons)
      .values({
        salonId: salon.id,
        title: "半額",
        discountKind: "percent",
        discountValue: 50,
        validFrom: "2026-11-01",
      })
      .returning();
    if (!coupon) throw new Error("coupon not inserted");
    await database.db.insert(couponMenus).values({ couponId: coupon.id, menuId: menu.id });
    const { held } = await hold(salon.id, menu.id, chosen.id, "2026-12-03T11:00", coupon.id);
    expect(held).toMatchObject({ nominationFee: 1100, totalPrice: 2750 + 1100 });
  });

  it("shows the fee where a stylist is chosen and on the salon page", async () => {
    const { salon, menu, chosen } = await salonWithFee(2200);
    const selection = await loadFlowSelection(
      database.db,
      { id: salon.id, slug: salon.slug, name: salon.name, timeZone: salon.timeZone },
      { menuIds: [menu.id], staffSlug: chosen.slug, couponId: null },
      NOW,
    );
    expect(selection.stylists.map((s) => s.nominationFee)).toEqual([2200, 0]);
    expect(selection.stylist?.nominationFee).toBe(2200);
    const detail = await getSalonDetail(database.db, salon.slug, NOW);
    expect(detail?.staff.map((member) => member.nominationFee)).toEqual([2200, 0]);
  });

  it("names the fee in the booking summary, the thanks page and the mail", async () => {
    const { salon, menu, chosen } = await salonWithFee(1100);
    const { held, visitor } = await hold(salon.id, menu.id, chosen.id, "2026-12-03T11:00");
    const email = `fee-${held.id.slice(0, 8)}@example.jp`;
    const booking = await confirmBooking(database.db, {
      ...bookingClient(database.db),
      holdId: held.id,
      userId: visitor.id,
      customer: { name: "予約 花子", kana: "よやく はなこ", phone: "090-1234-5678", email },
      notes: "",
      idempotencyKey: null,
      now: NOW,
    });
    const summary = await getBookingForUser(database.db, {
      bookingId: booking.id,
      userId: visitor.id,
    });
    expect(summary).toMatchObject({ nominationFee: 1100, totalPrice: 6600 });
    const thanks = await thanksView(database.db, summary);
    expect(thanks.summary).toMatchObject({
      stylistName: chosen.name,
      subtotal: 5500,
      nominationFee: 1100,
      coupon: null,
      total: 6600,
    });
    // No LINE on the account: the confirmation went by mail, as the page says.
    expect(thanks.sentBy).toEqual({ mail: true, line: false });

    const worker = createJobWorker({
      db: database.db,
      handlers: bookingJobHandlers({
        mailFrom: "Salon Navi <no-reply@salon.example.jp>",
        publicUrl: "https://salon.example.jp",
      }),
      log: createLogger("silent"),
      now: () => NOW,
    });
    await worker.runOnce();
    const [mail] = await database.db.select().from(mailOutbox).where(eq(mailOutbox.to, email));
    expect(mail?.text).toContain(`スタッフ：${chosen.name}（指名料 1,100円）`);
    expect(mail?.text).toContain("合計金額：6,600円");
  });
});

describe("the 指名料 of a phone or walk-in booking", () => {
  it("is charged when the customer asked for the stylist, and not for 指名なし", async () => {
    const { salon, menu, chosen } = await salonWithFee(1100);
    const owner = await buildUser(database.db);
    const entry = (time: string, staffRequested: boolean) =>
      enterSalonBooking(
        database.db,
        salon.id,
        salonBookingSchema.parse({
          source: "phone",
          staffId: chosen.id,
          staffRequested,
          date: "2026-12-03",
          time,
          menuIds: [menu.id],
          customer: { name: "電話 花子", kana: "でんわ はなこ", phone: "090-3333-4444" },
        }),
        { userId: owner.id },
        NOW,
      );
    expect(await entry("11:00", true)).toMatchObject({ nominationFee: 1100, totalPrice: 6600 });
    expect(await entry("13:00", false)).toMatchObject({ nominationFee: 0, totalPrice: 5500 });
  });
});

describe("the 指名料 in the JSON APIs", () => {
  let server: ReturnType<typeof createApiTestApp>;
  beforeAll(() => {
    server = createApiTestApp(database, { now: () => NOW });
    return async () => {
      await server.close();
      await server.accounts.close();
    };
  });

  async function verified<T extends { userId: string }>(user: T, role?: "owner") {
    await database.db
      .update(users)
      .set({ emailVerified: true, ...(role ? { role } : {}) })
      .where(eq(users.id, user.userId));
    return user;
  }

  it("the visitor's hold, confirmation and bookings, and the owner's booking detail carry nominationFee", async () => {
    const { salon, menu, chosen } = await salonWithFee(1100);
    const visitor = await verified(await apiUser(server.app));
    const holdAt = (time: string, staffId: string | null) =>
      visitor.request("/api/holds", {
        method: "POST",
        json: {
          salonId: salon.slug,
          menuIds: [menu.id],
          staffId,
          start: `2026-12-03T${time}:00+09:00`,
        },
      });

    const named = await holdAt("11:00", chosen.id);
    expect(named.status).toBe(201);
    const { data: held } = (await named.json()) as { data: { id: string } };
    expect(held).toMatchObject({ nominationFee: 1100, totalPrice: 6600 });

    const booked = await visitor.request("/api/bookings", {
      method: "POST",
      json: {
        holdId: held.id,
        contact: {
          name: "予約 花子",
          kana: "よやく はなこ",
          phone: "090-1234-5678",
          email: "hanako@example.jp",
        },
      },
    });
    expect(booked.status).toBe(201);
    const { data: booking } = (await booked.json()) as { data: { id: string } };
    expect(booking).toMatchObject({ nominationFee: 1100, totalPrice: 6600, staffRequested: true });

    const one = await visitor.request(`/api/bookings/${booking.id}`);
    expect((await one.json()).data).toMatchObject({ nominationFee: 1100, totalPrice: 6600 });
    const list = await visitor.request("/api/bookings");
    const { data: mine } = (await list.json()) as {
      data: { upcoming: { id: string; nominationFee: number }[] };
    };
    expect(mine.upcoming).toEqual([
      expect.objectContaining({ id: booking.id, nominationFee: 1100, totalPrice: 6600 }),
    ]);

    // 指名なし: no fee, and 0 rather than a missing field.
    const any = await holdAt("15:00", null);
    expect(any.status).toBe(201);
    expect((await any.json()).data).toMatchObject({ nominationFee: 0, totalPrice: 5500 });

    const owner = await verified(await apiUser(server.app), "owner");
    await database.db.insert(salonOwners).values({ salonId: salon.id, userId: owner.userId });
    const detail = await owner.request(`/api/owner/salons/${salon.id}/bookings/${booking.id}`);
    expect(detail.status).toBe(200);
    expect((await detail.json()).data).toMatchObject({ nominationFee: 1100, totalPrice: 6600 });
  });

  it("documents nominationFee as a required integer of Hold, Booking and OwnerBooking", async () => {
    const doc = (await (await server.app.request("/api/openapi.json")).json()) as {
      components: {
        schemas: Record<string, { required?: string[]; properties: Record<string, unknown> }>;
      };
    };
    for (const name of ["Hold", "Booking", "OwnerBooking"]) {
      const schema = doc.components.schemas[name];
      expect(schema?.required, name).toContain("nominationFee");
      expect(schema?.properties.nominationFee, name).toMatchObject({ type: "integer" });
    }
  });
});

describe("the 指名料 after a change", () => {
  it("stays in the price when the salon changes the booking's menus", async () => {
    const { salon, menu, chosen } = await salonWithFee(1100);
    const color = await buildMenu(database.db, salon.id, { name: "カラー", price: 4400 });
    const { held, visitor } = await hold(salon.id, menu.id, chosen.id, "2026-12-03T11:00");
    const booking = await confirmBooking(database.db, {
      ...bookingClient(database.db),
      holdId: held.id,
      userId: visitor.id,
      customer: { name: "予約 花子", kana: "よやく はなこ", phone: "090-1234-5678", email: "" },
      notes: "",
      idempotencyKey: null,
      now: NOW,
    });
    const owner = await buildUser(database.db, { role: "owner" });
    const moved = await moveBooking(
      database.db,
      {
        salonId: salon.id,
        bookingId: booking.id,
        version: booking.version,
        date: "2026-12-03",
        time: "11:00",
        staffId: chosen.id,
        menuIds: [menu.id, color.id],
        confirmOutsideSchedule: false,
      },
      salonActor(owner.id),
      NOW,
    );
    expect(moved).toMatchObject({ nominationFee: 1100, totalPrice: 5500 + 4400 + 1100 });
  });
});

describe("the 指名料 field of the stylist form", () => {
  async function ownerOf(salonId: string) {
    const member = await signedInMember(database, env, "owner");
    await setRole(database.db, member.email, "owner");
    await database.db.insert(salonOwners).values({ salonId, userId: member.userId });
    return member;
  }

  type Answer = {
    loaderData: { salon: { version: number } } | null;
    actionData: {
      form: string;
      errors: Record<string, string>;
      values: Record<string, string>;
    } | null;
  };

  it("accepts 0 to 100,000 yen typed in any width, refuses the rest in Japanese, and audits a change", async () => {
    const { salon, menu, chosen } = await salonWithFee(0);
    const owner = await ownerOf(salon.id);
    const path = `/owner/salons/${salon.id}/staff`;
    const version = async () => {
      const page = (await (await owner.b.request(path)).json()) as Answer;
      return String(page.loaderData?.salon.version);
    };
    const fields = async (nominationFee: string) =>
      postForm({
        intent: "staff-update",
        staffId: chosen.id,
        version: await version(),
        name: chosen.name,
        kana: "スタイリスト イチ",
        role: "スタイリスト",
        profile: "",
        photoUrl: "",
        yearsOfExperience: "5",
        nominationFee,
        specialties: "",
        menuIds: [menu.id],
      });

    const refusals: Record<string, [number, string | undefined, string | undefined]> = {};
    for (const typed of ["100001", "-1", "千円", "1.5"]) {
      const response = await owner.b.request(path, await fields(typed));
      const body = (await response.json()) as Answer;
      refusals[typed] = [
        response.status,
        body.actionData?.errors.nominationFee,
        body.actionData?.values.nominationFee,
      ];
    }
    expect(refusals).toEqual({
      "100001": [400, "指名料は0〜100,000円で入力してください。", "100001"],
      "-1": [400, "指名料は半角数字で入力してください。", "-1"],
      千円: [400, "指名料は半角数字で入力してください。", "千円"],
      "1.5": [400, "指名料は半角数字で入力してください。", "1.5"],
    });
    const feeOf = async () =>
      (await database.db.select().from(staff).where(eq(staff.id, chosen.id)))[0]?.nominationFee;
    expect(await feeOf()).toBe(0);

    const saved = await owner.b.request(path, await fields("１,１００円"));
    expect(saved.status).toBe(302);
    expect(saved.headers.get("location")).toBe(`${path}?staff=${chosen.id}&done=staff-updated`);
    expect(await feeOf()).toBe(1100);
    expect((await owner.b.request(path, await fields("100000"))).status).toBe(302);
    expect(await feeOf()).toBe(100_000);
    // Left empty: no fee.
    expect((await owner.b.request(path, await fields(""))).status).toBe(302);
    expect(await feeOf()).toBe(0);

    const entries = await database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.salonId, salon.id), eq(auditLog.action, "staff.update")))
      .orderBy(auditLog.createdAt, auditLog.id);
    expect(
      entries.map((entry) => [
        entry.actorUserId,
        entry.before?.nominationFee,
        entry.after?.nominationFee,
      ]),
    ).toEqual([
      [owner.userId, 0, 1100],
      [owner.userId, 1100, 100_000],
      [owner.userId, 100_000, 0],
    ]);
  });

  it("keeps the fee on a booking made before it changed", async () => {
    const { salon, menu, chosen } = await salonWithFee(1100);
    const { held } = await hold(salon.id, menu.id, chosen.id, "2026-12-03T11:00");
    await database.db.update(staff).set({ nominationFee: 3300 }).where(eq(staff.id, chosen.id));
    const [row] = await database.db.select().from(bookings).where(eq(bookings.id, held.id));
    expect(row).toMatchObject({ nominationFee: 1100, totalPrice: 6600 });
  });
});
