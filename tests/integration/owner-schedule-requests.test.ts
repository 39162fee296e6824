import { and, eq } from "drizzle-orm";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SchedulePage } from "../../app/components/owner/schedule-page";
import * as todayRoute from "../../app/routes/owner.salons.$id";
import * as schedulesRoute from "../../app/routes/owner.salons.$id.schedules";
import * as ownScheduleRoute from "../../app/routes/owner.salons.$id.schedules.mine";
import { addDays, toLocal, weekdayOf } from "../../common/local-time";
import { japaneseHolidaysBetween } from "../../server/bookings/holidays";
import {
  auditLog,
  bookingMenus,
  type SalonMemberRole,
  salonMembers,
  scheduleExceptions,
  scheduleRequests,
  users,
} from "../../server/db/schema";
import type { ScheduleRequestView } from "../../server/owner/schedule-requests.server";
import type { ScheduleFormResult, ScheduleMonth } from "../../server/owner/schedules.server";
import { apiClient, apiUser, createApiTestApp } from "../support/api-client";
import { buildBooking, buildSalonWithStaff } from "../support/builders";
import { createRouteApp, postForm, signedInMember } from "../support/route-app";
import { withTestDatabase } from "../support/test-database";

/**
 * A stylist's own schedule requests (issue 29, point 1; decision 0052):
 * asked on /schedules/mine, approved (through the exception writer, under
 * the stranding check) or declined on the managers' /schedules.
 */
const database = withTestDatabase();
let env: ReturnType<typeof createRouteApp>;
let api: ReturnType<typeof createApiTestApp>;

beforeAll(() => {
  env = createRouteApp(database, [
    { path: "/owner/salons/:id", module: todayRoute },
    { path: "/owner/salons/:id/schedules", module: schedulesRoute },
    { path: "/owner/salons/:id/schedules/mine", module: ownScheduleRoute },
  ]);
  api = createApiTestApp(database);
});
afterAll(async () => {
  await api.close();
  await api.accounts.close();
});

type Page = {
  loaderData: ScheduleMonth & {
    done: string | null;
    requests: ScheduleRequestView[];
    ownRequests: ScheduleRequestView[] | null;
  };
  actionData: ScheduleFormResult | null;
};

const jst = (date: string, time: string) => new Date(`${date}T${time}:00+09:00`);
const today = () => toLocal(new Date(), "Asia/Tokyo").date;

/** A Tuesday to Thursday `ahead` days or more from today (the stylist works it), not a holiday. */
function workday(ahead: number) {
  let date = addDays(today(), ahead);
  while (![2, 3, 4].includes(weekdayOf(date)) || japaneseHolidaysBetween(date, date).size > 0) {
    date = addDays(date, 1);
  }
  return date;
}

async function member(salonId: string, role: SalonMemberRole, staffId: string | null = null) {
  const person = await signedInMember(database, env, role);
  await database.db.insert(salonMembers).values({ salonId, userId: person.userId, role, staffId });
  return person;
}

async function fixture() {
  const built = await buildSalonWithStaff(database.db, { staffCount: 2 });
  const [own, other] = built.stylists;
  if (!own || !other) throw new Error("no stylists");
  const stylist = await member(built.salon.id, "stylist", own.id);
  const manager = await member(built.salon.id, "manager");
  return { ...built, own, other, stylist, manager };
}

const minePath = (salonId: string) => `/owner/salons/${salonId}/schedules/mine`;
const managePath = (salonId: string) => `/owner/salons/${salonId}/schedules`;

const ask = (date: string, extra: Record<string, string> = {}) =>
  postForm({
    intent: "request-create",
    date,
    kind: "closed",
    startsAt: "",
    endsAt: "",
    note: "家族の用事",
    ...extra,
  });

async function pageOf(
  b: { request: (path: string, init?: RequestInit) => Promise<Response> },
  path: string,
) {
  const answer = await b.request(path);
  expect(answer.status).toBe(200);
  return ((await answer.json()) as Page).loaderData;
}

function render(component: () => ReturnType<typeof createElement>) {
  const Stub = createRoutesStub([{ path: "/", Component: component }]);
  return renderToString(createElement(Stub, { initialEntries: ["/"] })).replaceAll("<!-- -->", "");
}

const renderPage = (data: Page["loaderData"], result?: ScheduleFormResult) =>
  render(() => createElement(SchedulePage, { data, result }));

async function requestRow(salonId: string) {
  const [row] = await database.db
    .select()
    .from(scheduleRequests)
    .where(eq(scheduleRequests.salonId, salonId));
  if (!row) throw new Error("no request");
  return row;
}

describe("a stylist's request", () => {
  it("is asked for on their own month, pending; another stylist cannot see or withdraw it; reception opens neither page", async () => {
    const { salon, own, other, stylist } = await fixture();
    const date = workday(20);
    const asked = await stylist.b.request(minePath(salon.id), ask(date));
    expect(asked.status).toBe(302);
    expect(asked.headers.get("location")).toBe(`${minePath(salon.id)}?done=request-created`);
    const row = await requestRow(salon.id);
    expect(row).toMatchObject({
      staffId: own.id,
      requestedBy: stylist.userId,
      date,
      kind: "closed",
      status: "pending",
      note: "家族の用事",
      version: 0,
    });
    const page = await pageOf(stylist.b, `${minePath(salon.id)}?done=request-created`);
    expect(page.ownRequests?.map((r) => [r.date, r.kind, r.status])).toEqual([
      [date, "closed", "pending"],
    ]);
    const html = renderPage(page);
    expect(html).toContain("承認待ち");
    expect(html).toContain("申請しました。");
    expect(html).toContain("取り下げる");

    // Another stylist of the same salon: not in their list, and withdrawing it is 404.
    const second = await member(salon.id, "stylist", other.id);
    expect((await pageOf(second.b, minePath(salon.id))).ownRequests).toEqual([]);
    const foreign = await second.b.request(
      minePath(salon.id),
      postForm({ intent: "request-withdraw", requestId: row.id, requestVersion: "0" }),
    );
    expect(foreign.status).toBe(404);
    expect((await requestRow(salon.id)).status).toBe("pending");
    // Nor may they approve it on the managers' page.
    const approveByStylist = await second.b.request(
      managePath(salon.id),
      postForm({ intent: "request-approve", requestId: row.id, requestVersion: "0" }),
    );
    expect(approveByStylist.status).toBe(404);

    const reception = await member(salon.id, "reception");
    expect((await reception.b.request(minePath(salon.id))).status).toBe(404);
    expect((await reception.b.request(managePath(salon.id))).status).toBe(404);
    expect((await reception.b.request(minePath(salon.id), ask(workday(30)))).status).toBe(404);

    const audit = await database.db
      .select({ action: auditLog.action, actor: auditLog.actorUserId })
      .from(auditLog)
      .where(eq(auditLog.salonId, salon.id));
    expect(audit).toEqual([{ action: "schedule_request.create", actor: stylist.userId }]);
  });
});

describe("the managers' list", () => {
  it("approves: the exception exists and the public free times lose the day", async () => {
    const { salon, own, stylist, manager, menu } = await fixture();
    const date = workday(14);
    const free = async () => {
      const answer = await apiClient(api.app).request(
        `/api/salons/${salon.slug}/availability?from=${date}&to=${date}&menus=${menu.id}&staff=${own.id}`,
      );
      expect(answer.status).toBe(200);
      const { data } = (await answer.json()) as {
        data: { days: { date: string; slots: { staffIds?: string[] }[] }[] };
      };
      return data.days[0]?.slots ?? [];
    };
    const before = await free();
    expect(before.length).toBeGreaterThan(0);
    expect((await stylist.b.request(minePath(salon.id), ask(date))).status).toBe(302);
    const page = await pageOf(manager.b, managePath(salon.id));
    expect(page.requests.map((r) => [r.staffName, r.date, r.kind, r.note])).toEqual([
      [own.name, date, "closed", "家族の用事"],
    ]);
    // 今日's 要確認 counts it for a manager; not for the stylist.
    const todayOf = async (b: typeof manager.b) => {
      const answer = await b.request(`/owner/salons/${salon.id}`);
      expect(answer.status).toBe(200);
      return ((await answer.json()) as { loaderData: { scheduleRequests: number } }).loaderData
        .scheduleRequests;
    };
    expect(await todayOf(manager.b)).toBe(1);
    expect(await todayOf(stylist.b)).toBe(0);
    const html = renderPage(page);
    expect(html).toContain("スタッフからの申請");
    expect(html).toContain(`${own.name}さん`);
    const row = await requestRow(salon.id);
    const approved = await manager.b.request(
      managePath(salon.id),
      postForm({ intent: "request-approve", requestId: row.id, requestVersion: "0" }),
    );
    expect(approved.status).toBe(302);
    expect(approved.headers.get("location")).toContain("done=request-approved");
    expect(await requestRow(salon.id)).toMatchObject({
      status: "approved",
      decidedBy: manager.userId,
      version: 1,
    });
    const exceptions = await database.db
      .select({ kind: scheduleExceptions.kind, date: scheduleExceptions.date })
      .from(scheduleExceptions)
      .where(eq(scheduleExceptions.staffId, own.id));
    expect(exceptions).toEqual([{ kind: "closed", date }]);
    // Asked with that stylist: the day has no free time left.
    expect(await free()).toEqual([]);
    expect((await pageOf(manager.b, managePath(salon.id))).requests).toEqual([]);
    const mine = await pageOf(stylist.b, minePath(salon.id));
    expect(mine.ownRequests?.[0]?.status).toBe("approved");
    expect(renderPage(mine)).toContain("承認済み");
    const audit = await database.db
      .select({ action: auditLog.action, actor: auditLog.actorUserId })
      .from(auditLog)
      .where(eq(auditLog.salonId, salon.id))
      .orderBy(auditLog.createdAt);
    expect(audit.map((a) => a.action)).toEqual([
      "schedule_request.create",
      "staff.exception_add",
      "schedule_request.approve",
    ]);

    // Approving again (the version moved on): refused, nothing added.
    const again = await manager.b.request(
      managePath(salon.id),
      postForm({ intent: "request-approve", requestId: row.id, requestVersion: "0" }),
    );
    expect(again.status).toBe(409);
    const body = (await again.json()) as Page;
    if (!body.actionData || body.actionData.ok) throw new Error("not refused");
    expect(body.actionData.errors.form).toContain("ほかの操作で変更されています");
  });

  it("refuses to approve a request that would strand a booking, listing it; with force applies it", async () => {
    const { salon, own, stylist, manager, menu } = await fixture();
    const date = workday(30);
    const booking = await buildBooking(database.db, {
      salonId: salon.id,
      staffId: own.id,
      startsAt: jst(date, "11:00"),
      endsAt: jst(date, "12:00"),
      customerName: "鈴木 一郎",
      status: "confirmed",
      source: "phone",
    });
    await database.db.insert(bookingMenus).values({
      salonId: salon.id,
      bookingId: booking.id,
      position: 0,
      menuId: menu.id,
      name: "カット",
      price: 5500,
      durationMinutes: 60,
    });
    expect((await stylist.b.request(minePath(salon.id), ask(date))).status).toBe(302);
    const row = await requestRow(salon.id);
    const refused = await manager.b.request(
      managePath(salon.id),
      postForm({ intent: "request-approve", requestId: row.id, requestVersion: "0" }),
    );
    expect(refused.status).toBe(409);
    const body = (await refused.json()) as Page;
    const result = body.actionData;
    if (!result || result.ok) throw new Error("not refused");
    expect(result.form).toBe(`request:${row.id}`);
    expect(result.stranded?.map((b) => [b.id, b.href])).toEqual([
      [booking.id, `/owner/salons/${salon.id}/bookings/${booking.id}`],
    ]);
    expect(renderPage(body.loaderData, result)).toContain(
      `<a href="/owner/salons/${salon.id}/bookings/${booking.id}"`,
    );
    expect((await requestRow(salon.id)).status).toBe("pending");
    const none = await database.db
      .select()
      .from(scheduleExceptions)
      .where(eq(scheduleExceptions.staffId, own.id));
    expect(none).toEqual([]);

    const forced = await manager.b.request(
      managePath(salon.id),
      postForm({ intent: "request-approve", requestId: row.id, requestVersion: "0", force: "on" }),
    );
    expect(forced.status).toBe(200);
    const applied = ((await forced.json()) as Page).actionData;
    if (!applied?.ok) throw new Error("not applied");
    expect(applied.stranded.map((b) => b.id)).toEqual([booking.id]);
    expect((await requestRow(salon.id)).status).toBe("approved");
    const audit = await database.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(eq(auditLog.salonId, salon.id));
    expect(audit.map((a) => a.action)).toContain("schedule.stranding_override");
  });

  it("declines with a note the stylist sees; a withdrawn request cannot be approved", async () => {
    const { salon, own, stylist, manager } = await fixture();
    const first = workday(40);
    const second = workday(50);
    expect(
      (
        await stylist.b.request(
          minePath(salon.id),
          ask(first, { kind: "hours", startsAt: "12:00", endsAt: "16:00" }),
        )
      ).status,
    ).toBe(302);
    expect((await stylist.b.request(minePath(salon.id), ask(second))).status).toBe(302);
    const rows = await database.db
      .select()
      .from(scheduleRequests)
      .where(eq(scheduleRequests.staffId, own.id));
    const hours = rows.find((r) => r.date === first);
    const closed = rows.find((r) => r.date === second);
    if (!hours || !closed) throw new Error("no requests");
    expect(hours).toMatchObject({ kind: "hours", startsAt: "12:00:00", endsAt: "16:00:00" });

    const declined = await manager.b.request(
      managePath(salon.id),
      postForm({
        intent: "request-decline",
        requestId: hours.id,
        requestVersion: "0",
        decisionNote: "その週は講習があります",
      }),
    );
    expect(declined.status).toBe(302);
    const page = await pageOf(stylist.b, minePath(salon.id));
    const shown = page.ownRequests?.find((r) => r.id === hours.id);
    expect(shown).toMatchObject({ status: "declined", decisionNote: "その週は講習があります" });
    const html = renderPage(page);
    expect(html).toContain("見送り");
    expect(html).toContain("その週は講習があります");

    // The stylist withdraws the other; the manager's page (loaded before) is refused.
    const withdrawn = await stylist.b.request(
      minePath(salon.id),
      postForm({ intent: "request-withdraw", requestId: closed.id, requestVersion: "0" }),
    );
    expect(withdrawn.status).toBe(302);
    expect(withdrawn.headers.get("location")).toContain("done=request-withdrawn");
    const late = await manager.b.request(
      managePath(salon.id),
      postForm({ intent: "request-approve", requestId: closed.id, requestVersion: "0" }),
    );
    expect(late.status).toBe(409);
    const refusal = ((await late.json()) as Page).actionData;
    if (!refusal || refusal.ok) throw new Error("not refused");
    expect(refusal.errors.form).toContain("取り下げ");
    const none = await database.db
      .select()
      .from(scheduleExceptions)
      .where(eq(scheduleExceptions.staffId, own.id));
    expect(none).toEqual([]);
    // Withdrawing twice: the stale version.
    const twice = await stylist.b.request(
      minePath(salon.id),
      postForm({ intent: "request-withdraw", requestId: closed.id, requestVersion: "0" }),
    );
    expect(twice.status).toBe(409);
    const statuses = await database.db
      .select({ id: scheduleRequests.id, status: scheduleRequests.status })
      .from(scheduleRequests)
      .where(and(eq(scheduleRequests.salonId, salon.id)));
    expect(new Map(statuses.map((s) => [s.id, s.status]))).toEqual(
      new Map([
        [hours.id, "declined"],
        [closed.id, "withdrawn"],
      ]),
    );
  });
});

/** An API account with its address confirmed (as one that accepted an invitation has). */
async function verifiedApiUser() {
  const client = await apiUser(api.app);
  await database.db.update(users).set({ emailVerified: true }).where(eq(users.id, client.userId));
  return client;
}

describe("at the same moment", () => {
  it("approving and withdrawing one request: exactly one gets through", async () => {
    const { salon, own, stylist, manager } = await fixture();
    expect((await stylist.b.request(minePath(salon.id), ask(workday(25)))).status).toBe(302);
    const row = await requestRow(salon.id);
    const [approve, withdraw] = await Promise.all([
      manager.b.request(
        managePath(salon.id),
        postForm({ intent: "request-approve", requestId: row.id, requestVersion: "0" }),
      ),
      stylist.b.request(
        minePath(salon.id),
        postForm({ intent: "request-withdraw", requestId: row.id, requestVersion: "0" }),
      ),
    ]);
    expect([approve.status, withdraw.status].sort()).toEqual([302, 409]);
    const after = await requestRow(salon.id);
    const exceptions = await database.db
      .select()
      .from(scheduleExceptions)
      .where(eq(scheduleExceptions.staffId, own.id));
    // The exception exists exactly when the approval won.
    expect(after.status).toBe(approve.status === 302 ? "approved" : "withdrawn");
    expect(exceptions).toHaveLength(approve.status === 302 ? 1 : 0);
    expect(after.version).toBe(1);
  });

  it("two requests past the pending limit: only one gets through", async () => {
    const { salon, own, stylist } = await fixture();
    await database.db.insert(scheduleRequests).values(
      Array.from({ length: 19 }, (_, n) => ({
        salonId: salon.id,
        staffId: own.id,
        date: addDays(today(), n + 1),
        kind: "closed" as const,
      })),
    );
    const [first, second] = await Promise.all([
      stylist.b.request(minePath(salon.id), ask(addDays(today(), 100))),
      stylist.b.request(minePath(salon.id), ask(addDays(today(), 101))),
    ]);
    expect([first.status, second.status].sort()).toEqual([302, 409]);
    const pending = await database.db
      .select()
      .from(scheduleRequests)
      .where(and(eq(scheduleRequests.staffId, own.id), eq(scheduleRequests.status, "pending")));
    expect(pending).toHaveLength(20);
  });
});

describe("as JSON", () => {
  it("lists a manager's pending requests and a stylist's own, each for its capability", async () => {
    const { salon, own, other, stylist } = await fixture();
    const date = workday(20);
    expect((await stylist.b.request(minePath(salon.id), ask(date))).status).toBe(302);
    const as = async (role: SalonMemberRole, staffId: string | null = null) => {
      const client = await verifiedApiUser();
      await database.db
        .insert(salonMembers)
        .values({ salonId: salon.id, userId: client.userId, role, staffId });
      return client;
    };
    const pending = `/api/owner/salons/${salon.id}/schedule-requests`;
    const mine = `/api/owner/salons/${salon.id}/schedules/mine/requests`;
    const manager = await as("manager");
    const list = await manager.request(pending);
    expect(list.status).toBe(200);
    const { data } = (await list.json()) as { data: ScheduleRequestView[] };
    expect(data.map((r) => [r.staffId, r.date, r.status])).toEqual([[own.id, date, "pending"]]);
    expect((await manager.request(mine)).status).toBe(404);

    // The stylist's own requests: the other stylist's list is empty; neither sees the pending list.
    const ownClient = await verifiedApiUser();
    await database.db
      .update(salonMembers)
      .set({ userId: ownClient.userId })
      .where(eq(salonMembers.userId, stylist.userId));
    const own_ = await ownClient.request(mine);
    expect(own_.status).toBe(200);
    expect(
      ((await own_.json()) as { data: ScheduleRequestView[] }).data.map((r) => r.date),
    ).toEqual([date]);
    expect((await ownClient.request(pending)).status).toBe(404);
    const second = await as("stylist", other.id);
    const theirs = await second.request(mine);
    expect(theirs.status).toBe(200);
    expect(((await theirs.json()) as { data: unknown[] }).data).toEqual([]);
    const reception = await as("reception");
    expect((await reception.request(pending)).status).toBe(404);
    expect((await reception.request(mine)).status).toBe(404);
    expect((await apiClient(api.app).request(mine)).status).toBe(401);
  });
});

describe("bad input", () => {
  it("gives a 4xx with a Japanese message and keeps what was typed; the pending limit holds", async () => {
    const { salon, stylist, manager } = await fixture();
    const path = minePath(salon.id);
    const cases: [Record<string, string>, string, string][] = [
      [{ date: "2020-01-01" }, "form", "今日以降"],
      [{ date: addDays(today(), 400) }, "form", "1年以内"],
      [{ date: "明日" }, "date", "形式"],
      [{ kind: "holiday" }, "kind", ""],
      [{ kind: "hours", startsAt: "18:00", endsAt: "10:00" }, "endsAt", "後に"],
      [{ kind: "hours", startsAt: "", endsAt: "" }, "startsAt", "入力"],
      [{ note: "あ".repeat(201) }, "note", "200文字"],
    ];
    for (const [fields, key, words] of cases) {
      const answer = await stylist.b.request(path, ask(workday(20), fields));
      expect(answer.status, JSON.stringify(fields)).toBe(400);
      const result = ((await answer.json()) as Page).actionData;
      if (!result || result.ok) throw new Error("not refused");
      expect(result.errors[key], JSON.stringify(fields)).toContain(words);
      expect(result.values.note).toBe(fields.note ?? "家族の用事");
    }
    const unknown = await stylist.b.request(path, postForm({ intent: "drop-table" }));
    expect(unknown.status).toBe(400);
    const badId = await stylist.b.request(
      path,
      postForm({ intent: "request-withdraw", requestId: "'; drop", requestVersion: "0" }),
    );
    expect(badId.status).toBe(404);
    const badVersion = await manager.b.request(
      managePath(salon.id),
      postForm({ intent: "request-decline", requestId: "x", requestVersion: "abc" }),
    );
    expect(badVersion.status).toBe(400);
    const longNote = await manager.b.request(
      managePath(salon.id),
      postForm({
        intent: "request-decline",
        requestId: "x",
        requestVersion: "0",
        decisionNote: "い".repeat(201),
      }),
    );
    expect(longNote.status).toBe(400);
    expect(
      await database.db
        .select()
        .from(scheduleRequests)
        .where(eq(scheduleRequests.salonId, salon.id)),
    ).toEqual([]);

    // The same date twice while pending, then the limit of 20.
    let date = addDays(today(), 1);
    expect((await stylist.b.request(path, ask(date))).status).toBe(302);
    expect((await stylist.b.request(path, ask(date))).status).toBe(409);
    for (let n = 1; n < 20; n++) {
      date = addDays(date, 1);
      expect((await stylist.b.request(path, ask(date))).status).toBe(302);
    }
    const over = await stylist.b.request(path, ask(addDays(date, 1)));
    expect(over.status).toBe(409);
    const result = ((await over.json()) as Page).actionData;
    if (!result || result.ok) throw new Error("not refused");
    expect(result.errors.form).toContain("20件まで");
  });
});
