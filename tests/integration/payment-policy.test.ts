import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as historyRoute from "../../app/routes/account.history";
import * as detailRoute from "../../app/routes/owner.salons.$id.bookings.$bookingId";
import * as settingsRoute from "../../app/routes/owner.salons.$id.settings";
import * as confirmRoute from "../../app/routes/salons.$id.confirm";
import * as paidRoute from "../../app/routes/salons.$id.confirm.paid";
import * as thanksRoute from "../../app/routes/salons.$id.confirm.thanks";
import { addDays, calendarDay, localToInstant } from "../../common/local-time";
import type { PolicySnapshot } from "../../common/payment-policy";
import { bookingJobHandlers } from "../../server/bookings/booking-jobs.server";
import {
  auditLog,
  bookings,
  coupons,
  menus,
  salonMembers,
  salonOwners,
  salonPaymentPolicies,
} from "../../server/db/schema";
import { createJobWorker } from "../../server/jobs/queue.server";
import { createLogger } from "../../server/logger";
import { startFakePayments } from "../../server/payments/payments.server";
import { outboxFor, setRole } from "../support/accounts";
import { buildSalonWithStaff } from "../support/builders";
import { payOnHostedPage } from "../support/payments";
import { createRouteApp, postForm, signedInMember } from "../support/route-app";
import { withTestDatabase } from "../support/test-database";

/**
 * The salon's お支払いとキャンセル料 (issue 40, §1–2; decision 0075): saved
 * by whoever may manage the settings, bounded with Japanese messages; shown
 * on the confirm step with this booking's amounts and dates; agreed to
 * (the server refuses a booking without consent) and stored on the booking,
 * where the salon's later changes never reach.
 */
const database = withTestDatabase();
let env: ReturnType<typeof createRouteApp>;
let payments: Awaited<ReturnType<typeof startFakePayments>>;

beforeAll(async () => {
  payments = await startFakePayments();
  env = createRouteApp(
    database,
    [
      { path: "/owner/salons/:id/settings", module: settingsRoute },
      { path: "/owner/salons/:id/bookings/:bookingId", module: detailRoute },
      { path: "/salons/:id/confirm", module: confirmRoute },
      { path: "/salons/:id/confirm/thanks", module: thanksRoute },
      { path: "/salons/:id/confirm/paid", module: paidRoute },
      { path: "/account/history", module: historyRoute },
    ],
    {},
    { payments: payments.provider },
  );
});

afterAll(() => payments?.fake.close());

async function ownerOf(salonId: string) {
  const member = await signedInMember(database, env, "owner");
  await setRole(database.db, member.email, "owner");
  await database.db.insert(salonOwners).values({ salonId, userId: member.userId });
  return member;
}

const policyForm = {
  intent: "payment-policy",
  mode: "deposit",
  depositKind: "percent",
  depositValue: "20",
  dayBeforePercent: "30",
  sameDayPercent: "50",
  noShowPercent: "100",
  note: "遅刻は15分まで",
};

async function policyRow(salonId: string) {
  const [row] = await database.db
    .select()
    .from(salonPaymentPolicies)
    .where(eq(salonPaymentPolicies.salonId, salonId));
  return row ?? null;
}

describe("saving the policy (設定 → お支払いとキャンセル料)", () => {
  it("saves the numbers, shows the generated text, and audits what changed", async () => {
    const { salon } = await buildSalonWithStaff(database.db);
    const owner = await ownerOf(salon.id);
    const path = `/owner/salons/${salon.id}/settings`;
    const first = await (await owner.b.request(path)).json();
    expect(first.loaderData.paymentPolicy.mode).toBe("none");
    expect(first.loaderData.paymentPolicyPreview).toEqual([]);

    const saved = await owner.b.request(path, postForm({ ...policyForm, depositValue: "２０" }));
    expect(saved.status).toBe(302);
    expect(saved.headers.get("location")).toBe(`${path}?saved=policy`);
    expect(await policyRow(salon.id)).toMatchObject({
      mode: "deposit",
      depositKind: "percent",
      depositValue: 20,
      sameDayPercent: 50,
      dayBeforePercent: 30,
      noShowPercent: 100,
      note: "遅刻は15分まで",
    });
    const page = await (await owner.b.request(`${path}?saved=policy`)).json();
    expect(page.loaderData.saved).toBe("policy");
    expect(page.loaderData.paymentPolicyPreview).toContain(
      "当日（ご予約日の0:00〜）のキャンセル：ご予約金額の50%",
    );

    // Back to none: the deposit goes with it.
    await owner.b.request(path, postForm({ ...policyForm, mode: "none", depositValue: "" }));
    expect(await policyRow(salon.id)).toMatchObject({ mode: "none", depositValue: null });
    const entries = await database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.salonId, salon.id), eq(auditLog.action, "salon.payment_policy")))
      .orderBy(auditLog.createdAt);
    expect(entries.map((entry) => [entry.actorUserId, entry.after])).toEqual([
      [
        owner.userId,
        {
          mode: "deposit",
          depositKind: "percent",
          depositValue: 20,
          sameDayPercent: 50,
          dayBeforePercent: 30,
          noShowPercent: 100,
          note: "遅刻は15分まで",
        },
      ],
      [owner.userId, { mode: "none", depositKind: null, depositValue: null }],
    ]);
  });

  it("refuses out-of-bounds numbers with Japanese messages, keeping what was typed and saving nothing", async () => {
    const { salon } = await buildSalonWithStaff(database.db);
    const owner = await ownerOf(salon.id);
    const path = `/owner/salons/${salon.id}/settings`;
    const cases: [Record<string, string>, string, RegExp][] = [
      [{ sameDayPercent: "150" }, "sameDayPercent", /当日のキャンセル料は100%以下/],
      [{ dayBeforePercent: "-5" }, "dayBeforePercent", /前日のキャンセル料は0〜100の整数/],
      [{ noShowPercent: "12.5" }, "noShowPercent", /無断キャンセルのキャンセル料は0〜100の整数/],
      [{ depositValue: "0" }, "depositValue", /予約金は1〜100%/],
      [{ depositValue: "101" }, "depositValue", /予約金は1〜100%/],
      [{ depositKind: "yen", depositValue: "100001" }, "depositValue", /1〜100,000円/],
      [{ depositValue: "" }, "depositValue", /予約金を入力してください/],
      [{ depositKind: "" }, "depositKind", /予約金の単位/],
      [{ mode: "bitcoin" }, "mode", /事前決済の方法を選んでください/],
      [{ note: "あ".repeat(201) }, "note", /補足は200文字以内/],
    ];
    for (const [change, field, message] of cases) {
      const refused = await owner.b.request(path, postForm({ ...policyForm, ...change }));
      expect(refused.status, field).toBe(400);
      const body = await refused.json();
      expect(body.actionData.kind).toBe("policy");
      expect(body.actionData.errors[field], JSON.stringify(change)).toMatch(message);
      // What was typed comes back as typed.
      expect(body.actionData.values[field]).toBe(change[field]);
    }
    expect(await policyRow(salon.id)).toBeNull();
    // The database refuses what the form would never send.
    await expect(
      database.db
        .insert(salonPaymentPolicies)
        .values({ salonId: salon.id, mode: "full", sameDayPercent: 101 }),
    ).rejects.toThrow();
    await expect(
      database.db.insert(salonPaymentPolicies).values({ salonId: salon.id, mode: "deposit" }),
    ).rejects.toThrow();
  });

  it("is refused to a stylist of the salon and is another salon's owner's 404", async () => {
    const { salon, stylists } = await buildSalonWithStaff(database.db);
    const other = await buildSalonWithStaff(database.db);
    const stranger = await ownerOf(other.salon.id);
    const path = `/owner/salons/${salon.id}/settings`;
    expect((await stranger.b.request(path, postForm(policyForm))).status).toBe(404);
    const stylist = await signedInMember(database, env, "stylist");
    await database.db.insert(salonMembers).values({
      salonId: salon.id,
      userId: stylist.userId,
      role: "stylist",
      staffId: stylists[0]?.id ?? null,
    });
    const refused = await stylist.b.request(path, postForm(policyForm));
    // Without settings.manage the page does not exist for them (decision 0045).
    expect(refused.status).toBe(404);
    expect(await policyRow(salon.id)).toBeNull();
    // A manager may (settings.manage).
    const manager = await signedInMember(database, env, "manager");
    await database.db
      .insert(salonMembers)
      .values({ salonId: salon.id, userId: manager.userId, role: "manager" });
    expect((await manager.b.request(path, postForm(policyForm))).status).toBe(302);
    expect((await policyRow(salon.id))?.mode).toBe("deposit");
  });
});

type HoldView = {
  kind: string;
  holdId: string;
  idempotencyKey: string;
  policy: { terms: PolicySnapshot; digest: string } | null;
  times: { time: string; start: string }[];
};

/** A member holds the salon's menu at `time` on `date` and reads the hold step. */
async function holdAt(
  slug: string,
  menuId: string,
  date: string,
  time: string,
  extra: Record<string, string> = {},
) {
  const member = await signedInMember(database, env, "visitor");
  const day = `/salons/${slug}/confirm?menu=${menuId}&date=${date}`;
  const pick = (await (await member.b.request(day)).json()).loaderData.view as HoldView;
  const slot = pick.times.find((t) => t.time === time);
  if (!slot) throw new Error(`${time} not offered on ${date}`);
  const held = await member.b.request(
    `/salons/${slug}/confirm`,
    postForm({ intent: "hold", menu: menuId, date, start: slot.start, ...extra }),
  );
  const holdPath = held.headers.get("location") ?? "";
  const view = (await (await member.b.request(holdPath)).json()).loaderData.view as HoldView;
  const fields = {
    intent: "confirm",
    hold: view.holdId,
    idempotencyKey: view.idempotencyKey,
    name: "山田 花子",
    nameKana: "ヤマダ ハナコ",
    phone: "090-1234-5678",
    email: member.email,
    note: "前髪短め",
  };
  return { ...member, holdPath, view, fields };
}

describe("the policy on the confirm step, agreed to and kept with the booking", () => {
  it("shows this booking's amounts and dates, needs the consent, and stores what was agreed, unchanged by later edits", async () => {
    const built = await buildSalonWithStaff(database.db, { staffCount: 1 });
    const { salon, menu } = built;
    const owner = await ownerOf(salon.id);
    const settings = `/owner/salons/${salon.id}/settings`;
    expect((await owner.b.request(settings, postForm(policyForm))).status).toBe(302);
    const date = addDays(calendarDay(new Date(), "Asia/Tokyo"), 3);
    const visitor = await holdAt(salon.slug, menu.id, date, "11:00");

    // This booking's terms: the menu's price (5,500円), windows on the days of the salon's zone.
    const terms = visitor.view.policy?.terms;
    expect(terms?.bookedAmount).toBe(5500);
    expect(terms?.dueAtBooking).toBe(1100);
    expect(terms?.fees.map((fee) => [fee.window, fee.amount, fee.date])).toEqual([
      ["day_before", 1650, addDays(date, -1)],
      ["same_day", 2750, date],
      ["no_show", 5500, null],
    ]);
    expect(terms?.fees[1]?.from).toBe(localToInstant(date, "00:00", "Asia/Tokyo").toISOString());
    expect(terms?.lines.some((line) => line.includes("ご予約金額の50%（2,750円）"))).toBe(true);

    // Without the consent: a Japanese message by the checkbox, what was typed kept, no booking.
    const refused = await visitor.b.request(visitor.holdPath, postForm(visitor.fields));
    expect(refused.status).toBe(400);
    const body = (await refused.json()).actionData;
    expect(body.errors.policyConsent).toMatch(/キャンセルポリシーに同意する/);
    expect(body.values.note).toBe("前髪短め");
    const [held] = await database.db
      .select({ status: bookings.status })
      .from(bookings)
      .where(eq(bookings.id, visitor.view.holdId));
    expect(held?.status).toBe("held");

    // A tampered digest (a policy the visitor did not read): refused too.
    const stale = await visitor.b.request(
      visitor.holdPath,
      postForm({ ...visitor.fields, policyConsent: "on", policyDigest: "AAAAAAAAAAAAAAAA" }),
    );
    expect(stale.status).toBe(409);
    expect((await stale.json()).actionData.errors.form).toMatch(/変更されました/);

    // Consented, with amounts from the browser that the server ignores: to the payment page.
    const toPay = await visitor.b.request(
      visitor.holdPath,
      postForm({
        ...visitor.fields,
        policyConsent: "on",
        policyDigest: visitor.view.policy?.digest ?? "",
        dueAtBooking: "1",
        totalPrice: "1",
      }),
    );
    expect(toPay.status).toBe(302);
    // The deposit paid on the provider's page (decision 0078), read back when the browser returns.
    const paid = await payOnHostedPage(toPay.headers.get("location") ?? "", "4242424242424242");
    const back = new URL(paid.headers.get("location") ?? "");
    const confirmed = await visitor.b.request(`${back.pathname}${back.search}`);
    expect(confirmed.status).toBe(302);
    const thanksPath = confirmed.headers.get("location") ?? "";
    const [row] = await database.db
      .select()
      .from(bookings)
      .where(eq(bookings.id, visitor.view.holdId));
    expect(row?.status).toBe("confirmed");
    const stored = row?.paymentPolicy;
    expect(stored?.mode).toBe("deposit");
    expect(stored?.dueAtBooking).toBe(1100);
    expect(stored?.fees.map((fee) => fee.amount)).toEqual([1650, 2750, 5500]);
    expect(stored?.note).toBe("遅刻は15分まで");

    // The salon changes its policy: the booking keeps what was agreed, everywhere.
    await owner.b.request(
      settings,
      postForm({ ...policyForm, mode: "full", sameDayPercent: "100", dayBeforePercent: "0" }),
    );
    const [after] = await database.db
      .select({ policy: bookings.paymentPolicy })
      .from(bookings)
      .where(eq(bookings.id, visitor.view.holdId));
    expect(after?.policy).toEqual(stored);
    const thanks = (await (await visitor.b.request(thanksPath)).json()).loaderData.view;
    expect(thanks.paymentPolicy).toEqual(stored);
    const history = await (
      await visitor.b.request(`/account/history?booking=${visitor.view.holdId}`)
    ).json();
    expect(history.loaderData.detail.booking.paymentPolicy).toEqual(stored);
    const detail = await (
      await owner.b.request(`/owner/salons/${salon.id}/bookings/${visitor.view.holdId}`)
    ).json();
    expect(detail.loaderData.booking.policyLines).toEqual(stored?.lines);

    // The confirmation mail carries the agreed lines.
    const handlers = bookingJobHandlers({
      mailFrom: "Salon Navi <no-reply@salon.example.jp>",
      publicUrl: "https://salon.example.jp",
    });
    const worker = createJobWorker({
      db: database.db,
      handlers,
      log: createLogger("silent"),
      now: () => new Date(),
    });
    await worker.runOnce();
    const mails = await outboxFor(database.db, visitor.email);
    const confirmation = mails.find((mail) => mail.subject.includes("ご予約が確定しました"));
    expect(confirmation?.text).toContain("お支払いとキャンセル料（ご予約時に同意いただいた内容）");
    expect(confirmation?.text).toContain("ご予約金額の50%（2,750円）");
  });

  it("marks the windows already begun for a booking made on the day itself", async () => {
    const built = await buildSalonWithStaff(database.db, { staffCount: 1 });
    const owner = await ownerOf(built.salon.id);
    await owner.b.request(`/owner/salons/${built.salon.id}/settings`, postForm(policyForm));
    // Today, at the last time still offered (the lead time keeps earlier ones closed).
    const today = calendarDay(new Date(), "Asia/Tokyo");
    const member = await signedInMember(database, env, "sameday");
    const pick = (
      await (
        await member.b.request(
          `/salons/${built.salon.slug}/confirm?menu=${built.menu.id}&date=${today}`,
        )
      ).json()
    ).loaderData.view as HoldView;
    const last = pick.times.at(-1);
    if (!last) return; // Too late in the day for any time today: nothing to check.
    const visitor = await holdAt(built.salon.slug, built.menu.id, today, last.time);
    const fees = visitor.view.policy?.terms.fees ?? [];
    expect(fees.map((fee) => [fee.window, fee.begunAtBooking])).toEqual([
      ["day_before", true],
      ["same_day", true],
      ["no_show", false],
    ]);
    expect(visitor.view.policy?.terms.lines.some((line) => line.includes("無料"))).toBe(false);
  });

  it("asks nothing of a salon without a policy, and an exempt menu or coupon is paid at the salon", async () => {
    const built = await buildSalonWithStaff(database.db, { staffCount: 1 });
    const date = addDays(calendarDay(new Date(), "Asia/Tokyo"), 4);
    const plain = await holdAt(built.salon.slug, built.menu.id, date, "10:00");
    expect(plain.view.policy).toBeNull();
    const booked = await plain.b.request(plain.holdPath, postForm(plain.fields));
    expect(booked.status).toBe(302);
    const [row] = await database.db
      .select({ policy: bookings.paymentPolicy })
      .from(bookings)
      .where(eq(bookings.id, plain.view.holdId));
    expect(row?.policy).toBeNull();

    const owner = await ownerOf(built.salon.id);
    await owner.b.request(`/owner/salons/${built.salon.id}/settings`, postForm(policyForm));
    await database.db
      .update(menus)
      .set({ prepaymentExempt: true })
      .where(eq(menus.id, built.menu.id));
    const exempt = await holdAt(built.salon.slug, built.menu.id, date, "13:00");
    expect(exempt.view.policy?.terms.paymentRequired).toBe(false);
    expect(exempt.view.policy?.terms.dueAtBooking).toBe(0);
    // The fees still apply, so the consent is still asked.
    expect(exempt.view.policy?.terms.fees).toHaveLength(3);

    await database.db
      .update(menus)
      .set({ prepaymentExempt: false })
      .where(eq(menus.id, built.menu.id));
    const [coupon] = await database.db
      .insert(coupons)
      .values({
        salonId: built.salon.id,
        title: "店頭払いクーポン",
        discountKind: "amount",
        discountValue: 500,
        validFrom: "2020-01-01",
        prepaymentExempt: true,
      })
      .returning();
    const withCoupon = await holdAt(built.salon.slug, built.menu.id, date, "15:00", {
      coupon: coupon?.id ?? "",
    });
    expect(withCoupon.view.policy?.terms.bookedAmount).toBe(5000);
    expect(withCoupon.view.policy?.terms.paymentRequired).toBe(false);
  });
});
