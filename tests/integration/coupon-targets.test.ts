import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as couponsCsvRoute from "../../app/routes/owner.salons.$id.coupons.csv";
import { couponRefusalMessages } from "../../common/coupon-eligibility";
import { confirmBooking, getBookingForUser, holdSlot } from "../../server/bookings/booking.server";
import { CouponNotApplicableError } from "../../server/bookings/booking-errors";
import { thanksView } from "../../server/bookings/pages/thanks-page.server";
import { attachCustomer } from "../../server/bookings/salon-customers.server";
import { accountProfiles, bookings, coupons, salonOwners } from "../../server/db/schema";
import { salonReport } from "../../server/owner/reports.server";
import { salonMenusAndCoupons } from "../../server/salons/salon-detail";
import { couponsForVisitor } from "../../server/salons/salon-sections";
import { setRole } from "../support/accounts";
import { bookingClient } from "../support/booking-client";
import { buildBooking, buildSalonWithStaff, buildUser } from "../support/builders";
import { createRouteApp, signedInMember } from "../support/route-app";
import { withTestDatabase } from "../support/test-database";

/**
 * Coupons that bring customers back (issue 41, §4; decision 0087): who may
 * use a coupon is decided by the server at hold and at confirm from the
 * salon's customer records, never from the browser.
 */
const database = withTestDatabase();
const db = () => database.db;

/** Tuesday 1 December 2026, 09:00 in Tokyo. */
const NOW = new Date("2026-12-01T09:00:00+09:00");
const at = (local: string, offset = "+09:00") => new Date(`${local}:00${offset}`);
const contact = {
  name: "再来 花子",
  kana: "サイライ ハナコ",
  phone: "090-1111-2222",
  email: "hanako@example.jp",
};

async function refusal(work: Promise<unknown>) {
  try {
    await work;
    return null;
  } catch (error) {
    if (error instanceof CouponNotApplicableError) return error;
    throw error;
  }
}

async function setup(salonOverrides: { timeZone?: string } = {}) {
  const { salon, stylists, menu } = await buildSalonWithStaff(db(), {
    staffCount: 2,
    salon: salonOverrides,
  });
  const coupon = async (values: Partial<typeof coupons.$inferInsert> = {}) => {
    const [row] = await db()
      .insert(coupons)
      .values({
        salonId: salon.id,
        title: "クーポン",
        discountKind: "amount",
        discountValue: 1000,
        validFrom: "2026-11-01",
        ...values,
      })
      .returning();
    if (!row) throw new Error("coupon");
    return row;
  };
  const hold = (
    userId: string | null,
    couponId: string,
    options: { start?: Date; staffId?: string | null } = {},
  ) =>
    holdSlot(db(), {
      ...bookingClient(db()),
      salonId: salon.id,
      menuIds: [menu.id],
      staffId: options.staffId === undefined ? (stylists[0]?.id ?? null) : options.staffId,
      start: options.start ?? at("2026-12-08T11:00"),
      userId,
      couponId,
      now: NOW,
    });
  const confirm = (holdId: string, userId: string, studentDeclared = false) =>
    confirmBooking(db(), {
      ...bookingClient(db()),
      holdId,
      userId,
      customer: contact,
      notes: "",
      idempotencyKey: null,
      studentDeclared,
      now: NOW,
    });
  /** A past visit (completed) entered for this contact, as the salon's records keep it. */
  const pastVisit = async (who: { userId: string | null; phone: string; email?: string }) => {
    const customerId = await attachCustomer(db(), {
      salonId: salon.id,
      userId: who.userId,
      name: contact.name,
      kana: contact.kana,
      phone: who.phone,
      email: who.email ?? "",
    });
    return buildBooking(db(), {
      salonId: salon.id,
      staffId: stylists[0]?.id ?? "",
      startsAt: at("2026-10-01T11:00"),
      endsAt: at("2026-10-01T12:00"),
      status: "completed",
      userId: who.userId,
      customerId,
      customerPhone: who.phone,
      source: who.userId ? "web" : "phone",
    });
  };
  return { salon, stylists, menu, coupon, hold, confirm, pastVisit };
}

describe("coupon targets at hold and confirm", () => {
  it("a returning customer gets the 再来 coupon and a new one does not; 新規 the other way", async () => {
    const { coupon, hold, confirm, pastVisit } = await setup();
    const returning = await coupon({ title: "【再来】1000円引き", target: "returning" });
    const forNew = await coupon({ title: "【新規】1000円引き", target: "new" });
    const regular = await buildUser(db(), { email: "regular@example.jp" });
    const newcomer = await buildUser(db(), { email: "newcomer@example.jp" });
    await pastVisit({ userId: regular.id, phone: "090-3333-4444" });

    const held = await hold(regular.id, returning.id);
    expect(held.totalPrice).toBe(5500 - 1000);
    const booked = await confirm(held.id, regular.id);
    expect(booked.couponId).toBe(returning.id);

    const later = { start: at("2026-12-09T11:00") };
    const refused = await refusal(hold(newcomer.id, returning.id, later));
    expect(refused?.message).toBe(couponRefusalMessages.not_returning);
    expect(refused?.details).toEqual({ reason: "not_returning" });
    expect((await refusal(hold(regular.id, forNew.id, later)))?.message).toBe(
      couponRefusalMessages.not_new,
    );
    const newHeld = await hold(newcomer.id, forNew.id, later);
    expect((await confirm(newHeld.id, newcomer.id)).couponId).toBe(forNew.id);
  });

  it("a customer who came by phone counts as returning once their account's phone matches", async () => {
    const { coupon, hold, pastVisit } = await setup();
    const returning = await coupon({ target: "returning" });
    const forNew = await coupon({ target: "new" });
    await pastVisit({ userId: null, phone: "090-5555-6666" });
    const user = await buildUser(db(), { email: "phoned@example.jp" });

    // The account has no phone yet: nothing ties it to the phone customer.
    expect((await refusal(hold(user.id, returning.id)))?.details).toEqual({
      reason: "not_returning",
    });
    // Typed differently (hyphens, full width): the same number once normalized.
    await db()
      .insert(accountProfiles)
      .values({ userId: user.id, phone: "０９０５５５５６６６６", completed: true });
    const held = await hold(user.id, returning.id);
    expect(held.couponId).toBe(returning.id);
    expect((await refusal(hold(user.id, forNew.id)))?.details).toEqual({ reason: "not_new" });
  });

  it("the same phone under another account is not this person (a family's landline)", async () => {
    const { coupon, hold, pastVisit } = await setup();
    const returning = await coupon({ target: "returning" });
    const parent = await buildUser(db(), { email: "parent@example.jp" });
    await pastVisit({ userId: parent.id, phone: "03-1234-5678" });
    const child = await buildUser(db(), { email: "child@example.jp" });
    await db().insert(accountProfiles).values({ userId: child.id, phone: "03-1234-5678" });
    expect((await refusal(hold(child.id, returning.id)))?.details).toEqual({
      reason: "not_returning",
    });
  });

  it("confirm decides again: a person who became known meanwhile loses the 新規 coupon", async () => {
    const { coupon, hold, confirm, pastVisit } = await setup();
    const forNew = await coupon({ target: "new" });
    const user = await buildUser(db(), { email: "later@example.jp" });
    const held = await hold(user.id, forNew.id);
    // The salon enters the visit of their phone customer, whose address is the account's.
    await pastVisit({ userId: null, phone: "090-7777-8888", email: "later@example.jp" });
    const refused = await refusal(confirm(held.id, user.id));
    expect(refused?.message).toBe(couponRefusalMessages.not_new);
    const [row] = await db().select().from(bookings).where(eq(bookings.id, held.id));
    expect(row?.status).toBe("held");
  });

  it("once per customer: a second booking with the coupon is refused, another coupon is not", async () => {
    const { coupon, hold, confirm } = await setup();
    const once = await coupon({ oncePerCustomer: true });
    const again = await coupon({ title: "何度でも" });
    const user = await buildUser(db(), { email: "once@example.jp" });
    await confirm((await hold(user.id, once.id)).id, user.id);
    const second = { start: at("2026-12-09T11:00") };
    expect((await refusal(hold(user.id, once.id, second)))?.message).toBe(
      couponRefusalMessages.used,
    );
    expect((await hold(user.id, again.id, second)).couponId).toBe(again.id);
  });

  it("weekdays and hours are read in the salon's time zone", async () => {
    const { coupon, hold } = await setup({ timeZone: "America/Los_Angeles" });
    // Mondays 10:00–12:00 in Los Angeles (Tuesday morning in Tokyo, Monday evening in UTC).
    const monday = await coupon({ weekdays: 1 << 1, fromMinute: 600, untilMinute: 720 });
    const la = (local: string) => at(local, "-08:00");
    expect((await hold(null, monday.id, { start: la("2026-12-07T10:00") })).couponId).toBe(
      monday.id,
    );
    expect((await refusal(hold(null, monday.id, { start: la("2026-12-07T12:00") })))?.message).toBe(
      couponRefusalMessages.hours,
    );
    expect((await refusal(hold(null, monday.id, { start: la("2026-12-08T10:00") })))?.message).toBe(
      couponRefusalMessages.weekday,
    );
  });

  it("a stylist's coupon needs that stylist chosen; 学割 needs the statement at confirm", async () => {
    const { coupon, hold, confirm, stylists } = await setup();
    const second = stylists[1]?.id ?? "";
    const hers = await coupon({ staffId: second });
    expect((await refusal(hold(null, hers.id)))?.message).toBe(couponRefusalMessages.stylist);
    expect((await refusal(hold(null, hers.id, { staffId: null })))?.message).toBe(
      couponRefusalMessages.stylist,
    );
    expect((await hold(null, hers.id, { staffId: second })).couponId).toBe(hers.id);

    const student = await coupon({ studentOnly: true, title: "学割U24 カット" });
    const user = await buildUser(db(), { email: "student@example.jp" });
    const held = await hold(user.id, student.id);
    expect((await refusal(confirm(held.id, user.id, false)))?.details).toEqual({
      reason: "student",
    });
    const booked = await confirm(held.id, user.id, true);
    expect(booked.studentDeclared).toBe(true);
    // The thanks page names the coupon and says to bring the student card, as the mails do.
    const thanks = await thanksView(
      db(),
      await getBookingForUser(db(), { bookingId: booked.id, userId: user.id }),
    );
    expect(thanks.studentDeclared).toBe(true);
    expect(thanks.summary.coupon?.title).toBe(student.title);
  });

  it("a tampered coupon id is refused: another salon's, an ended one, not an id", async () => {
    const { coupon, hold } = await setup();
    const other = await setup();
    const elsewhere = await other.coupon();
    const ended = await coupon({ validFrom: "2026-01-01", validUntil: "2026-11-30" });
    for (const id of [
      elsewhere.id,
      ended.id,
      "not-a-uuid",
      "00000000-0000-4000-8000-000000000000",
    ]) {
      expect(await refusal(hold(null, id))).toBeInstanceOf(CouponNotApplicableError);
    }
  });
});

describe("reports by coupon and target", () => {
  it("counts bookings and sales per coupon, per target, and without a coupon", async () => {
    const { salon, stylists, coupon } = await setup();
    const returning = await coupon({ title: "【再来】10%", target: "returning" });
    const forNew = await coupon({ title: "【新規】20%", target: "new" });
    const staffId = stylists[0]?.id ?? "";
    const visit = (day: string, values: Partial<typeof bookings.$inferInsert>) =>
      buildBooking(db(), {
        salonId: salon.id,
        staffId,
        startsAt: at(`2026-11-${day}T11:00`),
        endsAt: at(`2026-11-${day}T12:00`),
        ...values,
      });
    await visit("02", { couponId: returning.id, status: "completed", totalPrice: 4950 });
    await visit("03", { couponId: returning.id, status: "confirmed", totalPrice: 4950 });
    await visit("04", { couponId: forNew.id, status: "completed", totalPrice: 4400 });
    await visit("05", { couponId: forNew.id, status: "cancelled_by_user", totalPrice: 4400 });
    await visit("06", { status: "completed", totalPrice: 5500 });
    const report = await salonReport(db(), salon, {
      from: "2026-11-01",
      to: "2026-11-30",
      group: "month",
    });
    expect(report.coupons).toEqual([
      {
        couponId: returning.id,
        title: "【再来】10%",
        target: "returning",
        bookedCount: 2,
        bookedAmount: 9900,
        completedCount: 1,
        completedAmount: 4950,
      },
      {
        couponId: forNew.id,
        title: "【新規】20%",
        target: "new",
        bookedCount: 1,
        bookedAmount: 4400,
        completedCount: 1,
        completedAmount: 4400,
      },
      {
        couponId: null,
        title: "クーポンなし",
        target: null,
        bookedCount: 1,
        bookedAmount: 5500,
        completedCount: 1,
        completedAmount: 5500,
      },
    ]);
    expect(
      report.couponTargets.map((row) => [row.target, row.bookedCount, row.completedAmount]),
    ).toEqual([
      ["new", 1, 4400],
      ["returning", 2, 4950],
      ["all", 0, 0],
      ["none", 1, 5500],
    ]);

    // The same figures as a file for the owner (reports.read); a bad period is a Japanese 400.
    const env = createRouteApp(database, [
      { path: "/owner/salons/:id/coupons.csv", module: couponsCsvRoute },
    ]);
    const owner = await signedInMember(database, env, "coupon-owner");
    await setRole(db(), owner.email, "owner");
    await db().insert(salonOwners).values({ salonId: salon.id, userId: owner.userId });
    const path = `/owner/salons/${salon.id}/coupons.csv`;
    const response = await owner.b.request(`${path}?from=2026-11-01&to=2026-11-30`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-disposition")).toBe(
      'attachment; filename="coupons-20261101-20261130.csv"',
    );
    const text = new TextDecoder().decode(new Uint8Array(await response.arrayBuffer()).slice(3));
    expect(text.split("\r\n")).toEqual([
      "期間開始,期間終了,集計,対象,クーポン,予約件数,予約金額,来店数（完了）,売上",
      "2026-11-01,2026-11-30,対象別,新規,,1,4400,1,4400",
      "2026-11-01,2026-11-30,対象別,再来,,2,9900,1,4950",
      "2026-11-01,2026-11-30,対象別,全員,,0,0,0,0",
      "2026-11-01,2026-11-30,対象別,クーポンなし,,1,5500,1,5500",
      "2026-11-01,2026-11-30,クーポン別,再来,【再来】10%,2,9900,1,4950",
      "2026-11-01,2026-11-30,クーポン別,新規,【新規】20%,1,4400,1,4400",
      "2026-11-01,2026-11-30,クーポン別,クーポンなし,,1,5500,1,5500",
      "",
    ]);
    const bad = await owner.b.request(`${path}?from=2026-11-31`);
    expect(bad.status).toBe(400);
    expect(await bad.text()).toMatch(/クーポン別のCSVは/);
  });
});

describe("the salon page's coupons for the visitor", () => {
  it("lists the coupons a signed-in visitor can use first; a guest sees all with their targets", async () => {
    const { salon, coupon, pastVisit } = await setup();
    await coupon({ title: "A 新規", target: "new" });
    await coupon({ title: "B 再来", target: "returning" });
    await coupon({ title: "C 全員" });
    const regular = await buildUser(db(), { email: "page-regular@example.jp" });
    await pastVisit({ userId: regular.id, phone: "090-1212-3434" });
    const newcomer = await buildUser(db(), { email: "page-new@example.jp" });
    const { coupons: listed } = await salonMenusAndCoupons(db(), salon.id, "2026-12-01");
    const seen = async (userId: string | null) =>
      (await couponsForVisitor(db(), salon.id, userId, listed)).map((c) => [
        c.title,
        c.target,
        c.usable,
      ]);
    expect(await seen(null)).toEqual([
      ["A 新規", "new", null],
      ["B 再来", "returning", null],
      ["C 全員", "all", null],
    ]);
    expect(await seen(regular.id)).toEqual([
      ["B 再来", "returning", true],
      ["C 全員", "all", true],
      ["A 新規", "new", false],
    ]);
    expect(await seen(newcomer.id)).toEqual([
      ["A 新規", "new", true],
      ["C 全員", "all", true],
      ["B 再来", "returning", false],
    ]);
  });
});
