import { and, eq, isNull, sql } from "drizzle-orm";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SchedulePage } from "../../app/components/owner/schedule-page";
import * as adminStaffRoute from "../../app/routes/admin.salons.edit.$id.staff";
import * as schedulesRoute from "../../app/routes/owner.salons.$id.schedules";
import * as ownScheduleRoute from "../../app/routes/owner.salons.$id.schedules.mine";
import { addDays, toLocal, weekdayOf } from "../../common/local-time";
import { japaneseHolidaysBetween } from "../../server/bookings/holidays";
import {
  auditLog,
  bookingMenus,
  bookings,
  menus,
  salonBookingSettings,
  salonMembers,
  salonOpeningHours,
  salonOwners,
  salons,
  scheduleExceptions,
  staffSchedules,
  users,
} from "../../server/db/schema";
import type { ScheduleFormResult, ScheduleMonth } from "../../server/owner/schedules.server";
import type { SlotEvent } from "../../server/realtime/slot-events.server";
import { createRedirectRuleCache } from "../../server/routing/redirect-rules";
import { parseSalonForm } from "../../server/salon-editor/salon-form";
import { addStaffException } from "../../server/salon-editor/salon-staff-exceptions.server";
import { saveSchedule } from "../../server/salon-editor/salon-staff-schedules.server";
import { loadSalonEditor, updateSalon } from "../../server/salon-editor/salon-update.server";
import { StrandedBookingsError } from "../../server/salon-editor/schedule-stranding.server";
import { setRole } from "../support/accounts";
import { apiClient, apiUser, createApiTestApp } from "../support/api-client";
import { buildBooking, buildSalonWithStaff, buildSchedule, buildStaff } from "../support/builders";
import { Inbox } from "../support/inbox";
import { createRouteApp, postForm, signedInMember } from "../support/route-app";
import { transactionsTakeTurns, withTestDatabase } from "../support/test-database";

/**
 * /owner/salons/{id}/schedules (issue 29, point 2; decision 0046): a
 * stylist's month as the engine reads it, and changes that would strand
 * bookings refused (or applied with the list), by the owner's page and by
 * the admin editor's writers alike.
 */
const database = withTestDatabase();
let env: ReturnType<typeof createRouteApp>;
let api: ReturnType<typeof createApiTestApp>;

beforeAll(() => {
  env = createRouteApp(database, [
    { path: "/owner/salons/:id/schedules", module: schedulesRoute },
    { path: "/owner/salons/:id/schedules/mine", module: ownScheduleRoute },
    { path: "/admin/salons/edit/:id/staff", module: adminStaffRoute },
  ]);
  api = createApiTestApp(database);
});
afterAll(async () => {
  await api.close();
  await api.accounts.close();
});

// The page runs on the real clock: these dates are far ahead of it (January 2038 has the
// weekdays and holidays of January 2027).
const MONTH = "2038-01";
const jst = (date: string, time: string) => new Date(`${date}T${time}:00+09:00`);

async function ownerOf(salonId: string) {
  const member = await signedInMember(database, env, "owner");
  await setRole(database.db, member.email, "owner");
  await database.db.insert(salonOwners).values({ salonId, userId: member.userId });
  return member;
}

/**
 * Open Mon–Sat 10:00–20:00 (Sunday: 定休日), closed on public holidays; the
 * stylist works Mon–Fri 10:00–19:00 with Wednesday's lunch break, Saturday off.
 */
async function salonFixture(staffCount = 1) {
  const built = await buildSalonWithStaff(database.db, {
    staffCount,
    settings: { closedOnPublicHolidays: true },
  });
  const { salon } = built;
  await database.db.delete(salonOpeningHours).where(eq(salonOpeningHours.salonId, salon.id));
  await database.db.insert(salonOpeningHours).values(
    [1, 2, 3, 4, 5, 6].map((weekday) => ({
      salonId: salon.id,
      weekday,
      opens: "10:00",
      closes: "20:00",
    })),
  );
  for (const stylist of built.stylists) {
    await database.db.delete(staffSchedules).where(eq(staffSchedules.staffId, stylist.id));
    await buildSchedule(database.db, stylist, [
      { weekday: 1, startsAt: "10:00", endsAt: "19:00" },
      { weekday: 2, startsAt: "10:00", endsAt: "19:00" },
      { weekday: 3, startsAt: "10:00", endsAt: "13:00" },
      { weekday: 3, startsAt: "14:00", endsAt: "19:00" },
      { weekday: 4, startsAt: "10:00", endsAt: "19:00" },
      { weekday: 5, startsAt: "10:00", endsAt: "19:00" },
    ]);
  }
  return built;
}

async function booked(
  salonId: string,
  staffId: string,
  date: string,
  time: string,
  end: string,
  customerName = "佐藤 花子",
) {
  const [menu] = await database.db
    .select({ id: menus.id })
    .from(menus)
    .where(eq(menus.salonId, salonId));
  const booking = await buildBooking(database.db, {
    salonId,
    staffId,
    startsAt: jst(date, time),
    endsAt: jst(date, end),
    customerName,
    status: "confirmed",
    source: "phone",
  });
  await database.db.insert(bookingMenus).values({
    salonId,
    bookingId: booking.id,
    position: 0,
    menuId: menu?.id ?? "",
    name: "カット",
    price: 5500,
    durationMinutes: 60,
  });
  return booking;
}

async function versionOf(salonId: string) {
  const [row] = await database.db
    .select({ version: salons.version })
    .from(salons)
    .where(eq(salons.id, salonId));
  return String(row?.version ?? 0);
}

type Page = {
  loaderData: ScheduleMonth & { done: string | null };
  actionData: ScheduleFormResult | null;
};

const pathOf = (salonId: string) => `/owner/salons/${salonId}/schedules`;

/** Server-renders a view inside a data router, as the browser would get it. */
function render(component: () => ReturnType<typeof createElement>) {
  const Stub = createRoutesStub([{ path: "/", Component: component }]);
  // React marks the seams between text pieces with empty comments; the page reads as one text.
  return renderToString(createElement(Stub, { initialEntries: ["/"] })).replaceAll("<!-- -->", "");
}

const renderPage = (data: Page["loaderData"], result?: ScheduleFormResult) =>
  render(() => createElement(SchedulePage, { data, result }));

describe("the month view", () => {
  it("shows the engine's hours, 定休日, 臨時休業, 祝日, days off, changed hours and the bookings of each day", async () => {
    const { salon, stylists } = await salonFixture();
    const stylist = stylists[0];
    if (!stylist) throw new Error("no stylist");
    await database.db.insert(scheduleExceptions).values([
      { salonId: salon.id, staffId: stylist.id, date: "2038-01-07", kind: "closed" },
      {
        salonId: salon.id,
        staffId: stylist.id,
        date: "2038-01-08",
        kind: "hours",
        startsAt: "12:00",
        endsAt: "16:00",
      },
      { salonId: salon.id, staffId: null, date: "2038-01-13", kind: "closed", note: "設備点検" },
    ]);
    await booked(salon.id, stylist.id, "2038-01-12", "10:00", "11:00");
    await booked(salon.id, stylist.id, "2038-01-12", "15:00", "16:00");
    const owner = await ownerOf(salon.id);
    const answer = await owner.b.request(`${pathOf(salon.id)}?staff=${stylist.id}&month=${MONTH}`);
    expect(answer.status).toBe(200);
    const { loaderData } = (await answer.json()) as Page;
    const day = (date: string) => loaderData.days.find((d) => d.date === date);
    expect(loaderData.monthLabel).toBe("2038年1月");
    expect(loaderData.previousMonth).toBe("2037-12");
    expect(loaderData.nextMonth).toBe("2038-02");
    expect(loaderData.days).toHaveLength(31);
    // 2038-01-01 is a Friday: five empty cells before it.
    expect(loaderData.weeks[0]?.slice(0, 5)).toEqual([null, null, null, null, null]);
    expect(day("2038-01-01")).toMatchObject({
      holidayName: "元日",
      salonClosure: "holiday",
      hours: [],
    });
    expect(day("2038-01-03")).toMatchObject({ salonClosure: "regular", hours: [] });
    expect(day("2038-01-11")).toMatchObject({ holidayName: "成人の日", salonClosure: "holiday" });
    expect(day("2038-01-06")).toMatchObject({
      staffKind: "working",
      hours: [
        { start: "10:00", end: "13:00" },
        { start: "14:00", end: "19:00" },
      ],
    });
    expect(day("2038-01-07")).toMatchObject({ staffKind: "day_off", hours: [] });
    expect(day("2038-01-08")).toMatchObject({
      staffKind: "changed",
      hours: [{ start: "12:00", end: "16:00" }],
    });
    expect(day("2038-01-09")).toMatchObject({
      staffKind: "weekly_off",
      salonClosure: null,
      hours: [],
    });
    expect(day("2038-01-13")).toMatchObject({
      salonClosure: "closure",
      closureNote: "設備点検",
      hours: [],
    });
    expect(day("2038-01-12")).toMatchObject({
      bookings: 2,
      hours: [{ start: "10:00", end: "19:00" }],
    });

    // The page renders it: a table with weekday headers, each day a link to its forms.
    const html = renderPage(loaderData);
    expect(html).toContain('<th scope="col" abbr="日曜日"');
    expect(html).toContain("元日");
    expect(html).toContain("臨時休業");
    expect(html).toContain("定休日");
    expect(html).toContain("予約2件");
    expect(html).toContain(
      `href="?staff=${stylist.id}&amp;month=${MONTH}&amp;date=2038-01-12#day-forms"`,
    );
    expect(html).toContain("予約が残っていても変更する");

    // The same month as JSON, documented (the client checks every call against the document).
    const client = await apiUser(api.app);
    await database.db
      .update(users)
      .set({ role: "owner", emailVerified: true })
      .where(eq(users.id, client.userId));
    await database.db.insert(salonOwners).values({ salonId: salon.id, userId: client.userId });
    const json = await client.request(
      `/api/owner/salons/${salon.id}/schedules?staff=${stylist.id}&month=${MONTH}`,
    );
    expect(json.status).toBe(200);
    const { data } = (await json.json()) as { data: ScheduleMonth };
    expect(data.days).toEqual(loaderData.days);
    const badMonth = await client.request(`/api/owner/salons/${salon.id}/schedules?month=2038-13`);
    expect(badMonth.status).toBe(400);
    const other = await buildSalonWithStaff(database.db);
    const foreign = await client.request(`/api/owner/salons/${other.salon.id}/schedules`);
    expect(foreign.status).toBe(404);
    expect(
      (await apiClient(api.app).request(`/api/owner/salons/${salon.id}/schedules`)).status,
    ).toBe(401);
  });
});

describe("a stylist's own month", () => {
  it("is read-only and only theirs; the editing page is not theirs to open", async () => {
    const { salon, stylists } = await salonFixture(2);
    const [own, other] = stylists;
    if (!own || !other) throw new Error("no stylists");
    await database.db.insert(scheduleExceptions).values({
      salonId: salon.id,
      staffId: own.id,
      date: "2038-01-07",
      kind: "closed",
    });
    const stylist = await signedInMember(database, env, "stylist");
    await database.db
      .insert(salonMembers)
      .values({ salonId: salon.id, userId: stylist.userId, role: "stylist", staffId: own.id });
    const mine = `${pathOf(salon.id)}/mine`;
    // Another stylist's id in the URL is not followed.
    const answer = await stylist.b.request(`${mine}?month=${MONTH}&staff=${other.id}`);
    expect(answer.status).toBe(200);
    const { loaderData } = (await answer.json()) as Page & {
      loaderData: { readOnly: boolean };
    };
    expect(loaderData.readOnly).toBe(true);
    expect(loaderData.selected?.id).toBe(own.id);
    expect(loaderData.staff.map((s) => s.id)).toEqual([own.id]);
    expect(loaderData.days.find((d) => d.date === "2038-01-07")?.staffKind).toBe("day_off");
    expect((await stylist.b.request(pathOf(salon.id))).status).toBe(404);
    expect(
      (
        await stylist.b.request(
          pathOf(salon.id),
          postForm({ intent: "closure-add", date: "2038-01-20", note: "", version: "0" }),
        )
      ).status,
    ).toBe(404);
    // The owner edits on the editing page; /mine is a stylist's.
    const owner = await ownerOf(salon.id);
    expect((await owner.b.request(mine)).status).toBe(404);
  });
});

describe("changes that would strand bookings", () => {
  it("refuses a day off over a booking, listing it with its link; with the override applies it and lists it", async () => {
    const { salon, stylists } = await salonFixture();
    const stylist = stylists[0];
    if (!stylist) throw new Error("no stylist");
    const booking = await booked(salon.id, stylist.id, "2038-01-12", "10:00", "11:00", "鈴木 一郎");
    const owner = await ownerOf(salon.id);
    const path = pathOf(salon.id);
    const form = {
      intent: "exception-add",
      staffId: stylist.id,
      month: MONTH,
      date: "2038-01-12",
      kind: "closed",
      startsAt: "",
      endsAt: "",
      note: "研修",
    };
    const refused = await owner.b.request(
      path,
      postForm({ ...form, version: await versionOf(salon.id) }),
    );
    expect(refused.status).toBe(409);
    const body = (await refused.json()) as Page;
    const result = body.actionData;
    if (!result || result.ok) throw new Error("not refused");
    expect(
      result.stranded?.map((b) => [b.href, b.date, b.startTime, b.customerName, b.menus]),
    ).toEqual([
      [
        `/owner/salons/${salon.id}/bookings/${booking.id}`,
        "2038-01-12",
        "10:00",
        "鈴木 一郎",
        ["カット"],
      ],
    ]);
    expect(result.errors.form).toContain("2038年1月12日(火) 10:00〜11:00 鈴木 一郎様");
    expect(renderPage(body.loaderData, result)).toContain(
      `<a href="/owner/salons/${salon.id}/bookings/${booking.id}"`,
    );
    expect(result.values.note).toBe("研修");
    const none = await database.db
      .select()
      .from(scheduleExceptions)
      .where(eq(scheduleExceptions.staffId, stylist.id));
    expect(none).toEqual([]);

    const applied = await owner.b.request(
      path,
      postForm({ ...form, force: "on", version: await versionOf(salon.id) }),
    );
    expect(applied.status).toBe(200);
    const after = ((await applied.json()) as Page).actionData;
    if (!after?.ok) throw new Error("not applied");
    expect(after.stranded.map((b) => b.id)).toEqual([booking.id]);
    const rows = await database.db
      .select({ kind: scheduleExceptions.kind })
      .from(scheduleExceptions)
      .where(eq(scheduleExceptions.staffId, stylist.id));
    expect(rows).toEqual([{ kind: "closed" }]);
    const audit = await database.db
      .select({ action: auditLog.action, actor: auditLog.actorUserId, after: auditLog.after })
      .from(auditLog)
      .where(eq(auditLog.salonId, salon.id))
      .orderBy(auditLog.createdAt);
    expect(audit.map((a) => [a.action, a.actor])).toEqual([
      ["staff.exception_add", owner.userId],
      ["schedule.stranding_override", owner.userId],
    ]);

    // A booking already outside working time is not this change's doing: no refusal.
    const second = await owner.b.request(
      path,
      postForm({ ...form, date: "2038-01-19", version: await versionOf(salon.id) }),
    );
    expect(second.status).toBe(302);
  });

  it("releases a live hold the change leaves outside working time instead of refusing", async () => {
    const { salon, stylists } = await salonFixture();
    const stylist = stylists[0];
    if (!stylist) throw new Error("no stylist");
    const hold = await buildBooking(database.db, {
      salonId: salon.id,
      staffId: stylist.id,
      startsAt: jst("2038-01-12", "10:00"),
      endsAt: jst("2038-01-12", "11:00"),
      status: "held",
      holdExpiresAt: new Date(Date.now() + 10 * 60_000),
    });
    const owner = await ownerOf(salon.id);
    const saved = await owner.b.request(
      pathOf(salon.id),
      postForm({
        intent: "exception-add",
        staffId: stylist.id,
        month: MONTH,
        date: "2038-01-12",
        kind: "closed",
        version: await versionOf(salon.id),
      }),
    );
    expect(saved.status).toBe(302);
    const left = await database.db.select().from(bookings).where(eq(bookings.id, hold.id));
    expect(left).toEqual([]);
  });

  it("refuses a salon-wide closure that strands any stylist's bookings", async () => {
    const { salon, stylists } = await salonFixture(2);
    const [first, second] = stylists;
    if (!first || !second) throw new Error("no stylists");
    const a = await booked(salon.id, first.id, "2038-01-14", "10:00", "11:00", "A 様子");
    const b = await booked(salon.id, second.id, "2038-01-14", "13:00", "14:00", "B 様子");
    await booked(salon.id, second.id, "2038-01-15", "13:00", "14:00");
    const owner = await ownerOf(salon.id);
    const refused = await owner.b.request(
      pathOf(salon.id),
      postForm({
        intent: "closure-add",
        month: MONTH,
        date: "2038-01-14",
        note: "",
        version: await versionOf(salon.id),
      }),
    );
    expect(refused.status).toBe(409);
    const result = ((await refused.json()) as Page).actionData;
    if (!result || result.ok) throw new Error("not refused");
    expect(result.stranded?.map((x) => x.id)).toEqual([a.id, b.id]);
    const closures = await database.db
      .select()
      .from(scheduleExceptions)
      .where(and(eq(scheduleExceptions.salonId, salon.id), isNull(scheduleExceptions.staffId)));
    expect(closures).toEqual([]);

    // The public-holiday rule off and on again: 成人の日 has no booking, so nothing is stranded.
    const rule = await owner.b.request(
      pathOf(salon.id),
      postForm({ intent: "holiday-rule", month: MONTH, version: await versionOf(salon.id) }),
    );
    expect(rule.status).toBe(302);
    const [settings] = await database.db
      .select({ closed: salonBookingSettings.closedOnPublicHolidays })
      .from(salonBookingSettings)
      .where(eq(salonBookingSettings.salonId, salon.id));
    expect(settings?.closed).toBe(false);
  });

  it("is refused by the admin editor's writers too (one check for every writer)", async () => {
    const { salon, stylists } = await salonFixture();
    const stylist = stylists[0];
    if (!stylist) throw new Error("no stylist");
    const booking = await booked(salon.id, stylist.id, "2038-01-12", "17:00", "18:00");
    const admin = await signedInMember(database, env, "admin");
    await setRole(database.db, admin.email, "admin");
    const edit = async () => ({
      salonId: salon.id,
      version: Number(await versionOf(salon.id)),
      actor: { id: admin.userId },
      now: new Date(),
    });
    // Tuesdays end at 15:00 from now on: the 17:00 booking would be left outside.
    const shorter = {
      validFrom: null,
      validUntil: null,
      intervals: [1, 2, 4, 5].map((weekday) => ({
        weekday,
        startsAt: "10:00",
        endsAt: weekday === 2 ? "15:00" : "19:00",
      })),
    };
    const error = await saveSchedule(database.db, await edit(), stylist.id, "~", shorter).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(StrandedBookingsError);
    expect((error as StrandedBookingsError).bookings.map((b) => b.id)).toEqual([booking.id]);
    expect((error as StrandedBookingsError).status).toBe(409);
    const exception = await addStaffException(
      database.db,
      { ...(await edit()), timeZone: "Asia/Tokyo" },
      stylist.id,
      { date: "2038-01-12", kind: "hours", startsAt: "10:00", endsAt: "12:00", note: "" },
    ).catch((e: unknown) => e);
    expect(exception).toBeInstanceOf(StrandedBookingsError);
    const rows = await database.db
      .select()
      .from(staffSchedules)
      .where(eq(staffSchedules.staffId, stylist.id));
    expect(rows).toHaveLength(6);
  });
});

describe("the salon-wide writers", () => {
  it("add and remove a 臨時休業, save the weekly hours (定休日 follow) and the holiday rule, each audited", async () => {
    const { salon } = await salonFixture();
    const owner = await ownerOf(salon.id);
    const path = pathOf(salon.id);
    const post = async (fields: Record<string, string>) =>
      owner.b.request(
        path,
        postForm({ month: MONTH, ...fields, version: await versionOf(salon.id) }),
      );
    expect((await post({ intent: "closure-add", date: "2038-01-20", note: "棚卸し" })).status).toBe(
      302,
    );
    const [closure] = await database.db
      .select()
      .from(scheduleExceptions)
      .where(and(eq(scheduleExceptions.salonId, salon.id), isNull(scheduleExceptions.staffId)));
    expect(closure).toMatchObject({ date: "2038-01-20", kind: "closed", note: "棚卸し" });
    // The same date twice: refused, in Japanese.
    const twice = await post({ intent: "closure-add", date: "2038-01-20", note: "" });
    expect(twice.status).toBe(409);
    expect(((await twice.json()) as Page).actionData).toMatchObject({
      errors: { form: "この日はすでに臨時休業になっています。" },
    });
    expect((await post({ intent: "closure-delete", exceptionId: closure?.id ?? "" })).status).toBe(
      302,
    );
    // Mondays to Fridays only: Saturday becomes a 定休日 too.
    const weekdays: Record<string, string> = { intent: "hours-save" };
    for (const weekday of [1, 2, 3, 4, 5]) {
      weekdays[`start-${weekday}-0`] = "10:00";
      weekdays[`end-${weekday}-0`] = "20:00";
    }
    expect((await post(weekdays)).status).toBe(302);
    const [row] = await database.db
      .select({ regularHolidays: salons.regularHolidays })
      .from(salons)
      .where(eq(salons.id, salon.id));
    expect(row?.regularHolidays).toEqual([0, 6]);
    expect((await post({ intent: "holiday-rule" })).status).toBe(302);
    const audit = await database.db
      .select({ action: auditLog.action, actor: auditLog.actorUserId })
      .from(auditLog)
      .where(eq(auditLog.salonId, salon.id))
      .orderBy(auditLog.createdAt);
    expect(audit).toEqual(
      [
        "salon.closure_add",
        "salon.closure_remove",
        "salon.opening_hours",
        "salon.holiday_rule",
      ].map((action) => ({ action, actor: owner.userId })),
    );
  });
});

describe("the admin door", () => {
  it("refuses the スタッフ tab's day off over a booking, with the same list and links", async () => {
    const { salon, stylists } = await salonFixture();
    const stylist = stylists[0];
    if (!stylist) throw new Error("no stylist");
    const booking = await booked(salon.id, stylist.id, "2038-01-12", "10:00", "11:00", "鈴木 一郎");
    const admin = await signedInMember(database, env, "admin");
    await setRole(database.db, admin.email, "admin");
    const refused = await admin.b.request(
      `/admin/salons/edit/${salon.id}/staff`,
      postForm({
        intent: "exception-add",
        staffId: stylist.id,
        version: await versionOf(salon.id),
        date: "2038-01-12",
        kind: "closed",
        startsAt: "",
        endsAt: "",
        note: "",
      }),
    );
    expect(refused.status).toBe(409);
    const { actionData } = (await refused.json()) as {
      actionData: { errors: { form: string }; stranded: { href: string; customerName: string }[] };
    };
    expect(actionData.errors.form).toContain("鈴木 一郎様");
    expect(actionData.stranded).toMatchObject([
      { href: `/owner/salons/${salon.id}/bookings/${booking.id}`, customerName: "鈴木 一郎" },
    ]);
  });
});

describe("a booking made while the schedule changes", () => {
  // A race: PostgreSQL only (PGlite runs one transaction at a time, transactionsTakeTurns).
  it.skipIf(transactionsTakeTurns)(
    "is waited for (the stylist's row lock) and then refuses the change",
    async () => {
      const { salon, stylists } = await salonFixture();
      const stylist = stylists[0];
      if (!stylist) throw new Error("no stylist");
      const admin = await signedInMember(database, env, "admin");
      let release: () => void = () => {};
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      let inserted: () => void = () => {};
      const insertedYet = new Promise<void>((resolve) => {
        inserted = resolve;
      });
      // A booking inserted and not yet committed when the day off is saved.
      const booking = database.db.transaction(async (tx) => {
        const row = await buildBooking(tx as unknown as typeof database.db, {
          salonId: salon.id,
          staffId: stylist.id,
          startsAt: jst("2038-01-12", "10:00"),
          endsAt: jst("2038-01-12", "11:00"),
          customerName: "並行 予約",
        });
        inserted();
        await gate;
        return row;
      });
      await insertedYet;
      const change = addStaffException(
        database.db,
        {
          salonId: salon.id,
          version: Number(await versionOf(salon.id)),
          actor: { id: admin.userId },
          now: new Date(),
          timeZone: "Asia/Tokyo",
        },
        stylist.id,
        { date: "2038-01-12", kind: "closed", startsAt: null, endsAt: null, note: "" },
      ).catch((e: unknown) => e);
      // Until the change waits on a lock (the stylist's row): a bounded poll, not a sleep.
      for (let i = 0; i < 500; i++) {
        const result = await database.db.execute(
          sql`select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()`,
        );
        if (((result as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0) > 0) break;
      }
      release();
      const row = await booking;
      const error = await change;
      expect(error).toBeInstanceOf(StrandedBookingsError);
      expect((error as StrandedBookingsError).bookings.map((b) => b.id)).toEqual([row.id]);
    },
  );
});

describe("the admin editor's 基本情報 tab", () => {
  it("refuses weekly hours that close a weekday with bookings (the same check)", async () => {
    const { salon, stylists } = await salonFixture();
    const stylist = stylists[0];
    if (!stylist) throw new Error("no stylist");
    const booking = await booked(salon.id, stylist.id, "2038-01-12", "10:00", "11:00");
    const admin = await signedInMember(database, env, "admin");
    await setRole(database.db, admin.email, "admin");
    const editor = await loadSalonEditor(database.db, salon.id);
    const parsed = parseSalonForm(editor.values);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    const tuesdayClosed = {
      ...parsed.input,
      openingHours: parsed.input.openingHours.filter((h) => h.weekday !== 2),
    };
    const error = await updateSalon(
      database.db,
      createRedirectRuleCache(database.db),
      { salonId: salon.id, version: editor.salon.version },
      tuesdayClosed,
      { id: admin.userId },
      new Date(),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StrandedBookingsError);
    expect((error as StrandedBookingsError).bookings.map((b) => b.id)).toEqual([booking.id]);
    const hours = await database.db
      .select()
      .from(salonOpeningHours)
      .where(eq(salonOpeningHours.salonId, salon.id));
    expect(hours).toHaveLength(6);
  });
});

describe("every change shows at once", () => {
  it("a day off entered on the page takes the day out of the public free times", async () => {
    const { salon, stylists, menu } = await salonFixture();
    const stylist = stylists[0];
    if (!stylist) throw new Error("no stylist");
    const owner = await ownerOf(salon.id);
    // A Tuesday to Thursday two weeks or more ahead (inside the booking window), not a holiday.
    let date = addDays(toLocal(new Date(), "Asia/Tokyo").date, 14);
    while (![2, 3, 4].includes(weekdayOf(date)) || japaneseHolidaysBetween(date, date).size > 0) {
      date = addDays(date, 1);
    }
    const free = async () => {
      const answer = await apiClient(api.app).request(
        `/api/salons/${salon.slug}/availability?from=${date}&to=${date}&menus=${menu.id}`,
      );
      expect(answer.status).toBe(200);
      const { data } = (await answer.json()) as {
        data: { days: { date: string; slots: unknown[]; closedReason: string | null }[] };
      };
      return data.days[0];
    };
    expect((await free())?.slots.length).toBeGreaterThan(0);
    const inbox = new Inbox<SlotEvent>();
    const stop = await api.slotEvents.subscribe(salon.id, inbox.push);
    const saved = await owner.b.request(
      pathOf(salon.id),
      postForm({
        intent: "exception-add",
        staffId: stylist.id,
        month: date.slice(0, 7),
        date,
        kind: "closed",
        startsAt: "",
        endsAt: "",
        note: "",
        version: await versionOf(salon.id),
      }),
    );
    expect(saved.status).toBe(302);
    expect(saved.headers.get("location")).toBe(
      `${pathOf(salon.id)}?staff=${stylist.id}&month=${date.slice(0, 7)}&done=exception-added`,
    );
    expect((await free())?.slots).toEqual([]);
    // Open booking pages are told (the slot channel), the day among the dates.
    try {
      const event = await inbox.next();
      expect(event.salonId).toBe(salon.id);
      expect(event.dates).toContain(date);
    } finally {
      stop();
    }
  });
});

describe("concurrency, bad input and access", () => {
  it("refuses the second of two saves loaded at the same version", async () => {
    const { salon, stylists } = await salonFixture();
    const stylist = stylists[0];
    if (!stylist) throw new Error("no stylist");
    const owner = await ownerOf(salon.id);
    const version = await versionOf(salon.id);
    const form = (date: string) =>
      postForm({
        intent: "exception-add",
        staffId: stylist.id,
        month: MONTH,
        date,
        kind: "closed",
        startsAt: "",
        endsAt: "",
        note: "",
        version,
      });
    expect((await owner.b.request(pathOf(salon.id), form("2038-01-20"))).status).toBe(302);
    const second = await owner.b.request(pathOf(salon.id), form("2038-01-21"));
    expect(second.status).toBe(409);
    const result = ((await second.json()) as Page).actionData;
    if (!result || result.ok) throw new Error("not refused");
    expect(result.conflict).toBe(true);
    // The page keeps the version it was loaded with: saving again is refused until reloaded.
    expect(result.version).toBe(Number(version));
    expect(result.values.date).toBe("2038-01-21");
    expect(result.errors.form).toMatch(/更新しました/);
  });

  it("answers hostile input with a 4xx and a Japanese message, never a 5xx", async () => {
    const { salon, stylists } = await salonFixture();
    const stylist = stylists[0];
    if (!stylist) throw new Error("no stylist");
    const owner = await ownerOf(salon.id);
    const path = pathOf(salon.id);
    expect((await owner.b.request(`${path}?month=2038-13`)).status).toBe(400);
    expect((await owner.b.request(`${path}?month=${"9".repeat(500)}`)).status).toBe(400);
    expect((await owner.b.request(`${path}?staff=not-a-uuid`)).status).toBe(404);
    expect((await owner.b.request(`${path}?staff=${crypto.randomUUID()}`)).status).toBe(404);
    const version = await versionOf(salon.id);
    const attempts: Record<string, string>[] = [
      { intent: "exception-add", staffId: stylist.id, date: "2038-02-30", kind: "closed", version },
      { intent: "exception-add", staffId: stylist.id, date: "2038-01-20", kind: "hack", version },
      {
        intent: "exception-add",
        staffId: stylist.id,
        date: "2038-01-20",
        kind: "hours",
        startsAt: "19:00",
        endsAt: "10:00",
        version,
      },
      {
        intent: "exception-add",
        staffId: "x' or 1=1",
        date: "2038-01-20",
        kind: "closed",
        version,
      },
      { intent: "exception-add", staffId: stylist.id, date: "2020-01-01", kind: "closed", version },
      { intent: "closure-add", date: "<script>", note: "x", version },
      { intent: "closure-add", date: "2038-01-20", note: "あ".repeat(101), version },
      { intent: "closure-delete", exceptionId: "../../etc", version },
      {
        intent: "schedule-save",
        staffId: stylist.id,
        pattern: "new",
        "start-1-0": "25:00",
        version,
      },
      { intent: "hours-save", "start-1-0": "10:00", "end-1-0": "09:00", version },
      {
        intent: "exception-add",
        staffId: stylist.id,
        date: "2038-01-20",
        kind: "closed",
        version: "abc",
      },
      { intent: "drop-table", version },
    ];
    for (const fields of attempts) {
      const answer = await owner.b.request(path, postForm({ month: MONTH, ...fields }));
      expect(answer.status, JSON.stringify(fields)).toBeGreaterThanOrEqual(400);
      expect(answer.status, JSON.stringify(fields)).toBeLessThan(500);
      const result = ((await answer.json()) as Page).actionData;
      if (result && !result.ok) {
        const messages = Object.values(result.errors).join("");
        expect(messages, JSON.stringify(fields)).toMatch(/[ぁ-んァ-ン一-龥]/u);
      }
    }
  });

  it("is another salon's owner's 404, and a guest signs in first", async () => {
    const { salon, stylists } = await salonFixture();
    const other = await buildSalonWithStaff(database.db);
    const stranger = await ownerOf(other.salon.id);
    const path = pathOf(salon.id);
    expect((await stranger.b.request(path)).status).toBe(404);
    const post = await stranger.b.request(
      path,
      postForm({
        intent: "exception-add",
        staffId: stylists[0]?.id ?? "",
        date: "2038-01-20",
        kind: "closed",
        version: await versionOf(salon.id),
      }),
    );
    expect(post.status).toBe(404);
    // Another salon's stylist through this salon's page: not found.
    const owner = await ownerOf(salon.id);
    const foreignStaff = await buildStaff(database.db, other.salon.id, { name: "よそ" });
    expect((await owner.b.request(`${path}?staff=${foreignStaff.id}`)).status).toBe(404);
    const guest = await env.app.request(`http://localhost:3000${path}`, { redirect: "manual" });
    expect(guest.status).toBe(302);
  });
});
