import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as historyRoute from "../../app/routes/account.history";
import * as mailNotConfirmRoute from "../../app/routes/mail_not_confirm";
import * as confirmRoute from "../../app/routes/salons.$id.confirm";
import * as thanksRoute from "../../app/routes/salons.$id.confirm.thanks";
import * as icsRoute from "../../app/routes/salons.$id.confirm.thanks.ics";
import { addDays, calendarDay, toLocal } from "../../common/local-time";
import { getCurrentUser } from "../../server/accounts/current-user";
import { signInWithPassword, signUpWithPassword } from "../../server/accounts/identity";
import { findFlowSalon, parseFlowParams } from "../../server/bookings/pages/booking-flow.server";
import { submitConfirmForm } from "../../server/bookings/pages/confirm-form.server";
import {
  holdElsewhereMessage,
  holdLostMessage,
  loadConfirmView,
  menusChangedNotice,
} from "../../server/bookings/pages/confirm-page.server";
import { flowAvailability } from "../../server/bookings/pages/flow-availability.server";
import { bookings, couponMenus, coupons } from "../../server/db/schema";
import { browser, lastMailLink, uniqueEmail } from "../support/accounts";
import { bookingClient } from "../support/booking-client";
import { buildMenu, buildSalonWithStaff, buildStaff, restrictMenu } from "../support/builders";
import { firstEvent, readCalendar } from "../support/icalendar";
import { createRouteApp, postForm, signedInMember } from "../support/route-app";
import { withTestDatabase } from "../support/test-database";

const database = withTestDatabase();
let env: ReturnType<typeof createRouteApp>;
let slug: string;
let menuId: string;
let colorId: string;
let otherSalonMenuId: string;
let juniorSlug: string;
let seniorSlug: string;
let couponId: string;
const tomorrow = () => addDays(calendarDay(new Date(), "Asia/Tokyo"), 1);
// Far enough ahead to be before the 24-hour cancellation cutoff.
const later = () => addDays(calendarDay(new Date(), "Asia/Tokyo"), 3);

beforeAll(async () => {
  env = createRouteApp(database, [
    { path: "/salons/:id/confirm", module: confirmRoute },
    { path: "/salons/:id/confirm/thanks", module: thanksRoute },
    { path: "/salons/:id/confirm/thanks.ics", module: icsRoute },
    { path: "/account/history", module: historyRoute },
    { path: "/mail_not_confirm", module: mailNotConfirmRoute },
  ]);
  const { db } = database;
  const built = await buildSalonWithStaff(db, { staffCount: 1, salon: { slug: "flow-salon" } });
  slug = built.salon.slug;
  menuId = built.menu.id;
  const color = await buildMenu(db, built.salon.id, {
    name: "カラー",
    price: 8000,
    durationMinutes: 90,
  });
  colorId = color.id;
  seniorSlug = built.stylists[0]?.slug ?? "";
  // A junior who may not do colour.
  const junior = await buildStaff(db, built.salon.id, { slug: "flow-junior", sortOrder: 9 });
  juniorSlug = junior.slug;
  await restrictMenu(db, color.id, [built.stylists[0]?.id ?? ""]);
  const other = await buildSalonWithStaff(db, { salon: { slug: "flow-other" } });
  otherSalonMenuId = other.menu.id;
  const [coupon] = await db
    .insert(coupons)
    .values({
      salonId: built.salon.id,
      title: "平日10%OFF",
      discountKind: "percent",
      discountValue: 10,
      validFrom: "2020-01-01",
    })
    .returning();
  couponId = coupon?.id ?? "";
});

type View = {
  kind: string;
  problems: string[];
  days: { date: string; available: boolean }[];
  times: { time: string; start: string }[];
  contact: Record<string, string> | null;
  idempotencyKey: string;
  holdId: string;
  summary: { total: number; subtotal: number; coupon: { discount: number } | null };
};

async function page(b: ReturnType<typeof browser>, path: string) {
  const response = await b.request(path);
  const body = response.headers.get("content-type")?.includes("json")
    ? await response.json()
    : null;
  return { response, status: response.status, view: body?.loaderData?.view as View };
}

describe("/salons/:id/confirm, picking", () => {
  it("shows the days of the window and a day's free times for a menu", async () => {
    const guest = browser(env.app);
    const { status, view } = await page(
      guest,
      `/salons/${slug}/confirm?menu=${menuId}&date=${tomorrow()}`,
    );
    expect(status).toBe(200);
    expect(view.problems).toEqual([]);
    expect(view.days.length).toBeGreaterThan(55);
    expect(view.days.find((day) => day.date === tomorrow())?.available).toBe(true);
    expect(view.times.map((time) => time.time)).toContain("10:00");
    expect(view.times.map((time) => time.time)).toContain("19:00");
    expect(view.times.map((time) => time.time)).not.toContain("19:15");
  });

  it("lists only the stylists who can do every chosen menu, and a coupon brings its menus", async () => {
    const guest = browser(env.app);
    const { view: color } = await page(guest, `/salons/${slug}/confirm?menu=${colorId}`);
    const colorists = (color as unknown as { selection: { stylists: { slug: string }[] } })
      .selection.stylists;
    expect(colorists.map((s) => s.slug)).not.toContain(juniorSlug);
    expect(colorists).toHaveLength(1);
    const { view: cut } = await page(guest, `/salons/${slug}/confirm?menu=${menuId}`);
    expect(
      (cut as unknown as { selection: { stylists: { slug: string }[] } }).selection.stylists.map(
        (s) => s.slug,
      ),
    ).toContain(juniorSlug);

    await database.db.insert(couponMenus).values({ couponId, menuId: colorId });
    const { status, view } = await page(guest, `/salons/${slug}/confirm?coupon=${couponId}`);
    expect(status).toBe(200);
    const selection = (
      view as unknown as {
        selection: { menus: { id: string }[]; coupon: { id: string }; discount: number };
      }
    ).selection;
    expect(selection.menus.map((menu) => menu.id)).toEqual([colorId]);
    expect(selection.coupon.id).toBe(couponId);
    expect(selection.discount).toBe(800);
    const notFor = await page(guest, `/salons/${slug}/confirm?menu=${menuId}&coupon=${couponId}`);
    expect(notFor.status).toBe(400);
    expect(notFor.view.problems.join()).toMatch(/対象メニュー/);
    await database.db.delete(couponMenus).where(eq(couponMenus.couponId, couponId));
  });

  it("answers every bad parameter with a 400 and a Japanese message, never a 5xx", async () => {
    const guest = browser(env.app);
    const farDay = addDays(tomorrow(), 120);
    const yesterday = addDays(tomorrow(), -2);
    const cases: [string, RegExp][] = [
      [`menu=not-a-uuid`, /メニュー/],
      [`menu=${otherSalonMenuId}`, /メニュー/],
      [`menu=${colorId}&staff=${juniorSlug}`, /担当していません/],
      [`menu=${menuId}&staff=..%2Fadmin`, /スタイリスト/],
      [`menu=${menuId}&staff=nobody-here`, /スタイリスト/],
      [`menu=${menuId}&date=2026-13-45`, /日付/],
      [`menu=${menuId}&date=${yesterday}`, /過去の日付/],
      [`menu=${menuId}&date=${farDay}`, /受け付けていません/],
      [`menu=${menuId}&coupon=xyz`, /クーポン/],
      [`menu=${menuId}&coupon=00000000-0000-4000-8000-000000000000`, /クーポン/],
      [`hold=123`, /お取り置き/],
      [`menu=${menuId}&menu=${menuId}&menu=a&menu=b&menu=c&menu=d&menu=e`, /メニュー/],
    ];
    for (const [query, message] of cases) {
      const { status, view } = await page(guest, `/salons/${slug}/confirm?${query}`);
      expect(status, query).toBe(400);
      expect(view.problems.join(), query).toMatch(message);
    }
    const unknown = await guest.request("/salons/no-such-salon/confirm");
    expect(unknown.status).toBe(404);
  });

  it("refuses bad holds with a 4xx and a Japanese message", async () => {
    const guest = browser(env.app);
    const good = { intent: "hold", menu: menuId, date: tomorrow() };
    const past = new Date(Date.now() - 3_600_000).toISOString();
    const cases: [Record<string, string | string[]>, number, RegExp][] = [
      [{ ...good, start: "tomorrow at ten" }, 400, /時間の指定/],
      [{ ...good, start: past }, 409, /受け付けていません/],
      [{ ...good, menu: otherSalonMenuId, start: past }, 400, /メニュー/],
      [{ ...good, menu: colorId, staff: juniorSlug, start: past }, 400, /担当していません/],
      [{ intent: "hold", start: past }, 400, /メニューを1つ以上/],
      [{ intent: "explode" }, 400, /操作が正しくありません/],
    ];
    for (const [fields, status, message] of cases) {
      const response = await guest.request(`/salons/${slug}/confirm`, postForm(fields));
      expect(response.status, JSON.stringify(fields)).toBe(status);
      const body = await response.json();
      expect(body.actionData.error, JSON.stringify(fields)).toMatch(message);
    }
  });
});

describe("/salons/:id/confirm, holding and confirming", () => {
  it("a 学割 coupon asks 「学生です」 on the confirm step; unticked it is refused by its box, what was typed kept", async () => {
    const [salon] = await database.db.select().from(coupons).where(eq(coupons.id, couponId));
    const [student] = await database.db
      .insert(coupons)
      .values({
        salonId: salon?.salonId ?? "",
        title: "学割 20%OFF",
        discountKind: "percent",
        discountValue: 20,
        validFrom: "2020-01-01",
        studentOnly: true,
      })
      .returning();
    const { b, email } = await signedInMember(database, env, "student");
    const day = `/salons/${slug}/confirm?menu=${menuId}&coupon=${student?.id}&date=${later()}`;
    const slot = (await page(b, day)).view.times.find((time) => time.time === "15:00");
    const held = await b.request(
      `/salons/${slug}/confirm`,
      postForm({
        intent: "hold",
        menu: menuId,
        coupon: student?.id ?? "",
        date: later(),
        start: slot?.start ?? "",
      }),
    );
    const holdPath = held.headers.get("location") ?? "";
    const mine = await page(b, holdPath);
    expect((mine.view as View & { studentCoupon: boolean }).studentCoupon).toBe(true);
    const fields = {
      intent: "confirm",
      hold: mine.view.holdId,
      idempotencyKey: mine.view.idempotencyKey,
      name: "学生 花子",
      nameKana: "がくせい はなこ",
      phone: "090-1234-5678",
      email,
      note: "初めてです",
    };
    const refused = await b.request(holdPath, postForm(fields));
    expect(refused.status).toBe(400);
    const answer = (await refused.json()).actionData;
    expect(answer.errors).toEqual({
      student: "このクーポンは学割です。学生の方は「学生です」にチェックを入れてください。",
    });
    expect(answer.values).toMatchObject({ name: "学生 花子", note: "初めてです", student: "" });
    const booked = await b.request(holdPath, postForm({ ...fields, student: "on" }));
    expect(booked.status).toBe(302);
    const [row] = await database.db
      .select()
      .from(bookings)
      .where(eq(bookings.id, mine.view.holdId));
    expect(row).toMatchObject({
      status: "confirmed",
      couponId: student?.id,
      studentDeclared: true,
    });
  });

  it("a guest holds, signs in, confirms once (twice is once), sees thanks and history, cancels and the time is free", async () => {
    const guest = browser(env.app);
    const day = `/salons/${slug}/confirm?menu=${menuId}&coupon=${couponId}&date=${later()}`;
    const { view: pick } = await page(guest, day);
    const slot = pick.times.find((time) => time.time === "11:00");
    if (!slot) throw new Error("11:00 not offered");

    const held = await guest.request(
      `/salons/${slug}/confirm`,
      postForm({
        intent: "hold",
        menu: menuId,
        coupon: couponId,
        date: later(),
        start: slot.start,
      }),
    );
    expect(held.status).toBe(302);
    const holdPath = held.headers.get("location") ?? "";
    // The hold's URL carries its selection, so an expired hold still leads back to it.
    expect(holdPath).toMatch(
      new RegExp(
        `^/salons/flow-salon/confirm\\?menu=${menuId}&coupon=${couponId}&date=${later()}&hold=[0-9a-f-]{36}$`,
      ),
    );

    // The guest sees the summary but must sign in to confirm, coming back here.
    const asGuest = await page(guest, holdPath);
    expect(asGuest.view.kind).toBe("hold");
    expect(asGuest.view.contact).toBeNull();
    expect(asGuest.view.summary.subtotal).toBe(5500);
    expect(asGuest.view.summary.total).toBe(4950);
    const guestConfirm = await guest.request(holdPath, postForm({ intent: "confirm" }));
    expect(guestConfirm.status).toBe(302);
    expect(guestConfirm.headers.get("location")).toBe(
      `/signin?redirect=${encodeURIComponent(holdPath)}`,
    );
    // The time is taken while held.
    const { view: whileHeld } = await page(guest, day);
    expect(whileHeld.times.map((time) => time.time)).not.toContain("11:00");

    // Signed in in the same browser, the hold is theirs and the form is prefilled.
    const { b, email } = await signedInMember(database, env, "flow", guest);
    const mine = await page(b, holdPath);
    expect(mine.view.kind).toBe("hold");
    expect(mine.view.contact).toMatchObject({ name: "山田 花子", email });

    const badContact = await b.request(
      holdPath,
      postForm({
        intent: "confirm",
        hold: mine.view.holdId,
        idempotencyKey: mine.view.idempotencyKey,
        name: "",
        nameKana: "yamada",
        phone: "12345",
        email: "nope",
        note: "前髪短め",
      }),
    );
    expect(badContact.status).toBe(400);
    const bad = (await badContact.json()).actionData;
    expect(Object.keys(bad.errors).sort()).toEqual(["email", "name", "nameKana", "phone"]);
    expect(bad.values.note).toBe("前髪短め");

    const fields = {
      intent: "confirm",
      hold: mine.view.holdId,
      idempotencyKey: mine.view.idempotencyKey,
      name: "山田 花子",
      nameKana: "やまだ はなこ",
      phone: "090-1234-5678",
      email,
      note: "前髪短め",
    };
    const confirmed = await b.request(holdPath, postForm(fields));
    expect(confirmed.status).toBe(302);
    const thanksPath = confirmed.headers.get("location") ?? "";
    expect(thanksPath).toMatch(/^\/salons\/flow-salon\/confirm\/thanks\?booking=/);
    const again = await b.request(holdPath, postForm(fields));
    expect(again.headers.get("location")).toBe(thanksPath);
    const rows = await database.db.select().from(bookings).where(eq(bookings.customerEmail, email));
    expect(rows).toHaveLength(1);
    expect(rows[0]?.totalPrice).toBe(4950);
    expect(rows[0]?.couponId).toBe(couponId);
    expect(rows[0]?.customerPhone).toBe("09012345678");

    const thanks = await b.request(thanksPath);
    expect(thanks.status).toBe(200);
    const thanksView = (await thanks.json()).loaderData.view;
    expect(thanksView.number).toMatch(/^[0-9A-Z]{4}-[0-9A-Z]{4}$/);
    // Only the owner sees it.
    expect((await browser(env.app).request(thanksPath)).status).toBe(302);
    const stranger = await signedInMember(database, env, "stranger");
    expect((await stranger.b.request(thanksPath)).status).toBe(404);

    const bookingId = new URL(thanksPath, "http://x").searchParams.get("booking");
    const ics = await b.request(`/salons/${slug}/confirm/thanks.ics?booking=${bookingId}`);
    expect(ics.headers.get("content-type")).toContain("text/calendar");
    // Read by ical.js, as a calendar program would (readCalendar holds DTSTAMP in UTC too).
    const calendar = readCalendar(await ics.text());
    const event = firstEvent(calendar);
    expect(calendar.getFirstPropertyValue("method")).toBe("PUBLISH");
    expect(event.getFirstPropertyValue("uid")).toBe(`${bookingId}@localhost`);
    const start = event.getFirstProperty("dtstart");
    expect(start?.getParameter("tzid")).toBe("Asia/Tokyo");
    const startsAt = rows[0]?.startsAt ?? new Date(0);
    expect(String(start?.getFirstValue())).toBe(
      `${toLocal(startsAt, "Asia/Tokyo").date}T${toLocal(startsAt, "Asia/Tokyo").time}:00`,
    );

    const history = await (await b.request("/account/history")).json();
    expect(history.loaderData.list.upcoming.map((item: { id: string }) => item.id)).toEqual([
      bookingId,
    ]);
    const detail = await (await b.request(`/account/history?booking=${bookingId}`)).json();
    expect(detail.loaderData.detail.booking.cancellable).toBe(true);
    expect(detail.loaderData.detail.booking.rebookHref).toBe(
      `/salons/${slug}/confirm?menu=${menuId}`,
    );

    const cancelled = await b.request(
      "/account/history",
      postForm({ intent: "cancel", booking: bookingId ?? "", reason: "予定が入ったため" }),
    );
    expect(cancelled.status).toBe(302);
    const { view: after } = await page(browser(env.app), day);
    expect(after.times.map((time) => time.time)).toContain("11:00");
    const cancelTwice = await b.request(
      "/account/history",
      postForm({ intent: "cancel", booking: bookingId ?? "" }),
    );
    expect(cancelTwice.status).toBe(409);
    expect((await cancelTwice.json()).actionData.error).toMatch(/キャンセル済み/);
  });

  it("an expired hold says so in Japanese and shows fresh times for the same selection", async () => {
    const { b } = await signedInMember(database, env, "late");
    const { view: pick } = await page(
      b,
      `/salons/${slug}/confirm?menu=${menuId}&date=${tomorrow()}`,
    );
    const slot = pick.times.find((time) => time.time === "13:00");
    if (!slot) throw new Error("13:00 not offered");
    const held = await b.request(
      `/salons/${slug}/confirm`,
      postForm({ intent: "hold", menu: menuId, date: tomorrow(), start: slot.start }),
    );
    const holdPath = held.headers.get("location") ?? "";
    const holdId = new URL(holdPath, "http://x").searchParams.get("hold") ?? "";
    const { view: holdView } = await page(b, holdPath);
    await database.db
      .update(bookings)
      .set({ holdExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(bookings.id, holdId));
    const late = await b.request(
      holdPath,
      postForm({
        intent: "confirm",
        hold: holdId,
        idempotencyKey: holdView.idempotencyKey,
        name: "山田 花子",
        nameKana: "ヤマダ ハナコ",
        phone: "09012345678",
        email: "late@example.jp",
      }),
    );
    expect(late.status).toBe(410);
    const body = await late.json();
    expect(body.actionData.errors.form).toMatch(/期限が切れました/);
    expect(body.actionData.values.email).toBe("late@example.jp");
    expect(body.loaderData.view.kind).toBe("pick");
    expect(body.loaderData.view.problems[0]).toBe(holdLostMessage);
    expect(body.loaderData.view.date).toBe(tomorrow());
    expect(body.loaderData.view.times.map((time: { time: string }) => time.time)).toContain(
      "13:00",
    );
    // Picking a fresh time keeps what was typed (the page sends it along as draft fields).
    const fresh = body.loaderData.view.times.find(
      (time: { time: string }) => time.time === "14:00",
    );
    const rehold = await b.request(
      `/salons/${slug}/confirm`,
      postForm({
        intent: "hold",
        menu: menuId,
        date: tomorrow(),
        start: fresh.start,
        "draft.email": "late@example.jp",
        "draft.note": "遅れてすみません",
      }),
    );
    expect(rehold.status).toBe(302);
    const { view: again } = await page(b, rehold.headers.get("location") ?? "");
    expect(again.contact).toMatchObject({
      name: "山田 花子",
      email: "late@example.jp",
      note: "遅れてすみません",
    });
  });

  it("an expired hold whose row is gone goes back to the time step with the menus, stylist, coupon, day and typed note kept", async () => {
    const date = addDays(calendarDay(new Date(), "Asia/Tokyo"), 8);
    const { b, email, userId } = await signedInMember(database, env, "expired");
    const stylist = seniorSlug;
    const pickPath = `/salons/${slug}/confirm?menu=${menuId}&menu=${colorId}&staff=${stylist}&coupon=${couponId}&date=${date}`;
    const { view: pick } = await page(b, pickPath);
    expect(pick.problems).toEqual([]);
    const slot = pick.times.find((time) => time.time === "10:00");
    if (!slot) throw new Error("10:00 not offered");
    const held = await b.request(
      `/salons/${slug}/confirm`,
      postForm({
        menu: [menuId, colorId],
        shown: [menuId, colorId],
        staff: stylist,
        coupon: couponId,
        date,
        start: slot.start,
      }),
    );
    const holdPath = held.headers.get("location") ?? "";
    const holdId = new URL(holdPath, "http://x").searchParams.get("hold") ?? "";
    expect(holdPath).toBe(
      `/salons/${slug}/confirm?menu=${menuId}&menu=${colorId}&staff=${stylist}&coupon=${couponId}&date=${date}&hold=${holdId}`,
    );
    const { view: holdView } = await page(b, holdPath);
    expect(holdView.kind).toBe("hold");
    const typed = {
      intent: "confirm",
      hold: holdId,
      idempotencyKey: holdView.idempotencyKey,
      name: "山田 花子",
      nameKana: "ヤマダ ハナコ",
      phone: "09012345678",
      email,
      note: "カラーは明るめで",
    };

    // Eleven minutes later (the server's clock, injected): refused, nothing booked, the typed kept.
    const salon = await findFlowSalon(database.db, slug);
    if (!salon) throw new Error("no salon");
    const user = await getCurrentUser(b.toRequest("/"), {
      db: database.db,
      accounts: env.accounts,
    });
    expect(user?.id).toBe(userId);
    const form = new FormData();
    for (const [key, value] of Object.entries(typed)) form.append(key, value);
    const elevenLater = new Date(Date.now() + 11 * 60_000);
    const outcome = await submitConfirmForm(database.db, {
      salon,
      form,
      user,
      now: elevenLater,
      ...bookingClient(database.db),
      browserKey: "test-browser-key",
    });
    expect(outcome).toMatchObject({ kind: "contact", status: 410 });
    expect(outcome.kind === "contact" && outcome.values.note).toBe("カラーは明るめで");
    const afterExpiry = await loadConfirmView(
      database.db,
      {
        salon,
        query: parseFlowParams(new URL(holdPath, "http://x").searchParams),
        user,
        browserKey: null,
        now: elevenLater,
      },
      flowAvailability,
    );
    expect(afterExpiry.kind).toBe("pick");

    // The row is gone (another visitor's hold at that time, or the housekeeping, removed it):
    // through the page, confirming leads back to the same day's times with everything kept.
    await database.db.delete(bookings).where(eq(bookings.id, holdId));
    const late = await b.request(holdPath, postForm(typed));
    expect(late.status).toBe(410);
    const body = await late.json();
    expect(body.actionData.values).toMatchObject({ note: "カラーは明るめで", email });
    const view = body.loaderData.view;
    expect(view.kind).toBe("pick");
    expect(view.problems[0]).toBe(holdLostMessage);
    expect(view.date).toBe(date);
    expect(view.selection.menus.map((menu: { id: string }) => menu.id)).toEqual([menuId, colorId]);
    expect(view.selection.stylist.slug).toBe(stylist);
    expect(view.selection.coupon.id).toBe(couponId);
    expect(view.times.map((time: { time: string }) => time.time)).toContain("10:00");
    // The page sends the typed fields along with the next time (draft fields): prefilled again.
    const rehold = await b.request(
      `/salons/${slug}/confirm`,
      postForm({
        menu: [menuId, colorId],
        shown: [menuId, colorId],
        staff: stylist,
        coupon: couponId,
        date,
        start: slot.start,
        "draft.note": "カラーは明るめで",
        "draft.phone": "09012345678",
      }),
    );
    expect(rehold.status).toBe(302);
    const { view: again } = await page(b, rehold.headers.get("location") ?? "");
    expect(again.kind).toBe("hold");
    expect(again.contact).toMatchObject({ note: "カラーは明るめで", phone: "09012345678" });
  });

  it("a hold belongs to the browser (guest) or account (member) that made it, not to whoever has its URL", async () => {
    // A day of its own: the holds below must not take the other tests' times.
    const ownDay = () => addDays(calendarDay(new Date(), "Asia/Tokyo"), 5);
    const guest = browser(env.app);
    const { view: pick } = await page(
      guest,
      `/salons/${slug}/confirm?menu=${menuId}&date=${ownDay()}`,
    );
    const slot = pick.times.find((time) => time.time === "16:00");
    if (!slot) throw new Error("16:00 not offered");
    const held = await guest.request(
      `/salons/${slug}/confirm`,
      postForm({ intent: "hold", menu: menuId, date: ownDay(), start: slot.start }),
    );
    expect(held.status).toBe(302);
    expect(held.headers.get("set-cookie")).toMatch(/salon_hold_browser=.+HttpOnly/i);
    const holdPath = held.headers.get("location") ?? "";
    const holdId = new URL(holdPath, "http://x").searchParams.get("hold") ?? "";

    // Another browser with the URL, as a guest or signed in: refused, fresh times instead.
    const stranger = await page(browser(env.app), holdPath);
    const { b: member } = await signedInMember(database, env, "stranger");
    const memberView = await page(member, holdPath);
    for (const refused of [stranger, memberView]) {
      expect(refused.status).toBe(400);
      expect(refused.view.kind).toBe("pick");
      expect(refused.view.problems[0]).toBe(holdElsewhereMessage);
      expect(refused.view.contact ?? null).toBeNull();
      const times = refused.view.times.map((time) => time.time);
      expect(times).toContain("15:00");
      expect(times).not.toContain("16:00");
    }
    const confirm = await member.request(
      holdPath,
      postForm({
        intent: "confirm",
        hold: holdId,
        idempotencyKey: "stranger-key-0001",
        name: "他人 太郎",
        nameKana: "タニン タロウ",
        phone: "09012345678",
        email: "stranger@example.jp",
      }),
    );
    expect(confirm.status).toBe(410);
    // Nobody claimed it: the guest's browser still has it.
    const [row] = await database.db.select().from(bookings).where(eq(bookings.id, holdId));
    expect(row?.userId).toBeNull();
    expect((await page(guest, holdPath)).view.kind).toBe("hold");

    // A member's hold is the member's, whichever browser they use.
    const { b: owner, userId } = await signedInMember(database, env, "owner-of-hold");
    const fresh = stranger.view.times.find((time) => time.time === "17:00");
    if (!fresh) throw new Error("17:00 not offered");
    const mine = await owner.request(
      `/salons/${slug}/confirm`,
      postForm({ intent: "hold", menu: menuId, date: ownDay(), start: fresh.start }),
    );
    const minePath = mine.headers.get("location") ?? "";
    expect((await page(owner, minePath)).view.kind).toBe("hold");
    const other = await page(member, minePath);
    expect(other.view.kind).toBe("pick");
    expect(other.view.problems[0]).toBe(holdElsewhereMessage);
    const [memberHold] = await database.db
      .select()
      .from(bookings)
      .where(eq(bookings.id, new URL(minePath, "http://x").searchParams.get("hold") ?? ""));
    expect(memberHold?.userId).toBe(userId);
  });

  it("an unverified member holds, is asked to confirm the address (403, hold kept), and books once it is", async () => {
    const b = browser(env.app);
    const email = uniqueEmail("unverified");
    await signUpWithPassword(env.accounts, { email, password: "secret1" }, b.toRequest("/signup"));
    b.keep(
      await signInWithPassword(
        env.accounts,
        { email, password: "secret1" },
        b.toRequest("/signin"),
      ),
    );
    const date = addDays(calendarDay(new Date(), "Asia/Tokyo"), 6);
    const { view: pick } = await page(b, `/salons/${slug}/confirm?menu=${menuId}&date=${date}`);
    const slot = pick.times.find((time) => time.time === "12:00");
    if (!slot) throw new Error("12:00 not offered");
    // Holding is open to an unverified account.
    const held = await b.request(
      `/salons/${slug}/confirm`,
      postForm({ intent: "hold", menu: menuId, date, start: slot.start }),
    );
    expect(held.status).toBe(302);
    const holdPath = held.headers.get("location") ?? "";
    const mine = await page(b, holdPath);
    expect(mine.view.kind).toBe("hold");
    const verifyHref = `/mail_not_confirm?redirect=${encodeURIComponent(holdPath)}`;
    expect((mine.view as unknown as { verifyHref: string }).verifyHref).toBe(verifyHref);

    const fields = {
      intent: "confirm",
      hold: mine.view.holdId,
      idempotencyKey: mine.view.idempotencyKey,
      name: "山田 花子",
      nameKana: "やまだ はなこ",
      phone: "090-1234-5678",
      email,
      note: "初めてです",
    };
    const refused = await b.request(holdPath, postForm(fields));
    expect(refused.status).toBe(403);
    const { actionData } = await refused.json();
    expect(actionData.errors.form).toMatch(/メールアドレスの確認が必要/);
    expect(actionData.values.note).toBe("初めてです");
    const [row] = await database.db
      .select({ status: bookings.status })
      .from(bookings)
      .where(eq(bookings.id, mine.view.holdId));
    expect(row?.status).toBe("held");

    // The resend screen's link leads back to the held time once the address is confirmed.
    const resent = await b.request(
      "/mail_not_confirm",
      postForm({ redirect: new URLSearchParams(verifyHref.split("?")[1]).get("redirect") ?? "" }),
    );
    expect(resent.headers.get("location")).toBe("/finish_resend_email");
    const verified = await b.request(await lastMailLink(database.db, email));
    expect(verified.headers.get("location")).toContain(
      `/finish_sign_up?verified=1&redirect=${encodeURIComponent(holdPath)}`,
    );
    const again = await page(b, holdPath);
    expect((again.view as unknown as { verifyHref: string | null }).verifyHref).toBeNull();
    const booked = await b.request(holdPath, postForm(fields));
    expect(booked.status).toBe(302);
    expect(booked.headers.get("location")).toMatch(/\/confirm\/thanks\?booking=/);
  });

  it("a time picked with a second menu ticked is held for both menus, never for the first alone", async () => {
    const guest = browser(env.app);
    const date = addDays(calendarDay(new Date(), "Asia/Tokyo"), 7);
    const oneMenu = `/salons/${slug}/confirm?menu=${menuId}&date=${date}`;
    const { view: shown } = await page(guest, oneMenu);
    const late = shown.times.find((time) => time.time === "19:00");
    if (!late) throw new Error("19:00 not offered");

    // The page posts the ticked checkboxes with the time; the times were for one menu.
    const picked = await guest.request(
      `/salons/${slug}/confirm`,
      postForm({ menu: [menuId, colorId], shown: menuId, date, start: late.start }),
    );
    expect(picked.status).toBe(302);
    const both = picked.headers.get("location") ?? "";
    expect(both).toBe(
      `/salons/${slug}/confirm?menu=${menuId}&menu=${colorId}&date=${date}&changed=menus`,
    );
    const held = await database.db
      .select()
      .from(bookings)
      .where(eq(bookings.startsAt, new Date(late.start)));
    expect(held).toEqual([]);
    // The times shown now are for both menus (2 h 30 min: 19:00 no longer fits), with a notice.
    const again = await page(guest, both);
    expect(again.status).toBe(200);
    expect(again.view.problems).toEqual([]);
    expect((again.view as unknown as { notice: string }).notice).toBe(menusChangedNotice);
    const times = again.view.times.map((time) => time.time);
    expect(times).not.toContain("19:00");
    expect(times).toContain("17:30");
    expect(times).not.toContain("17:45");

    // The menu step's button keeps the day, with whatever is ticked.
    const shownBoth = await guest.request(
      `/salons/${slug}/confirm`,
      postForm({ intent: "menus", menu: [menuId, colorId], shown: menuId, date }),
    );
    expect(shownBoth.headers.get("location")).toBe(
      `/salons/${slug}/confirm?menu=${menuId}&menu=${colorId}&date=${date}`,
    );

    // Picked from the times for both: held for both.
    const slot = again.view.times.find((time) => time.time === "17:30");
    const hold = await guest.request(
      `/salons/${slug}/confirm`,
      postForm({
        menu: [menuId, colorId],
        shown: [colorId, menuId],
        date,
        start: slot?.start ?? "",
      }),
    );
    expect(hold.status).toBe(302);
    const { view: holdView } = await page(guest, hold.headers.get("location") ?? "");
    expect(holdView.kind).toBe("hold");
    const summary = holdView.summary as unknown as { menus: { name: string }[]; total: number };
    expect(summary.menus.map((menu) => menu.name)).toHaveLength(2);
    expect(summary.total).toBe(5500 + 8000);
  });

  it("a lost race on a held time is a 409 in Japanese", async () => {
    const first = browser(env.app);
    const second = browser(env.app);
    const { view } = await page(
      first,
      `/salons/${slug}/confirm?menu=${colorId}&date=${tomorrow()}`,
    );
    const slot = view.times.find((time) => time.time === "15:00");
    if (!slot) throw new Error("15:00 not offered");
    const fields = { intent: "hold", menu: colorId, date: tomorrow(), start: slot.start };
    expect((await first.request(`/salons/${slug}/confirm`, postForm(fields))).status).toBe(302);
    const lost = await second.request(`/salons/${slug}/confirm`, postForm(fields));
    expect(lost.status).toBe(409);
    expect((await lost.json()).actionData.error).toMatch(/埋まりました/);
  });
});

describe("/account/history", () => {
  it("sends a guest to sign in and back", async () => {
    const guest = browser(env.app);
    const response = await guest.request("/account/history?booking=x");
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(
      `/signin?redirect=${encodeURIComponent("/account/history?booking=x")}`,
    );
  });

  it("answers a bad or foreign booking and bad cancel input with a 4xx in Japanese", async () => {
    const { b } = await signedInMember(database, env, "history");
    const malformed = await b.request("/account/history?booking=not-an-id");
    expect(malformed.status).toBe(404);
    expect((await malformed.json()).loaderData.error).toBe("予約が見つかりません。");
    const cases: [Record<string, string>, number, RegExp][] = [
      [{ intent: "cancel", booking: "not-an-id" }, 404, /予約が見つかりません/],
      [
        { intent: "cancel", booking: "00000000-0000-4000-8000-000000000000" },
        404,
        /予約が見つかりません/,
      ],
      [
        { intent: "delete", booking: "00000000-0000-4000-8000-000000000000" },
        400,
        /操作が正しくありません/,
      ],
      [
        {
          intent: "cancel",
          booking: "00000000-0000-4000-8000-000000000000",
          reason: "あ".repeat(201),
        },
        400,
        /200文字以内/,
      ],
    ];
    for (const [fields, status, message] of cases) {
      const response = await b.request("/account/history", postForm(fields));
      expect(response.status, JSON.stringify(fields)).toBe(status);
      expect((await response.json()).actionData.error).toMatch(message);
    }
  });
});
