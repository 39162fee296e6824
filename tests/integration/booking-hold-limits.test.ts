import { beforeAll, describe, expect, it } from "vitest";
import * as confirmRoute from "../../app/routes/salons.$id.confirm";
import { addDays, calendarDay } from "../../common/local-time";
import { browser, nextIp } from "../support/accounts";
import { apiUser, createApiTestApp } from "../support/api-client";
import { buildSalonWithStaff } from "../support/builders";
import { createRouteApp, postForm, signedInMember } from "../support/route-app";
import { withTestDatabase } from "../support/test-database";

// Issue 27, point 6: nobody may block a salon's day with holds (decision 0034).
// Two live holds at once here, per guest address and per account.
const limits = { LIVE_GUEST_HOLDS_PER_IP: "2", LIVE_HOLDS_PER_ACCOUNT: "2" };
const database = withTestDatabase();
let env: ReturnType<typeof createRouteApp>;
let salons: Awaited<ReturnType<typeof buildSalonWithStaff>>[];

beforeAll(async () => {
  env = createRouteApp(database, [{ path: "/salons/:id/confirm", module: confirmRoute }], limits);
  salons = [];
  for (let index = 0; index < 3; index++) {
    salons.push(await buildSalonWithStaff(database.db, { staffCount: 2 }));
  }
});

const date = () => addDays(calendarDay(new Date(), "Asia/Tokyo"), 2);
const holdForm = (index: number, time: string, extra: Record<string, string> = {}) => ({
  intent: "hold",
  menu: salons[index]?.menu.id ?? "",
  date: date(),
  start: `${date()}T${time}:00+09:00`,
  ...extra,
});
const confirmPath = (index: number) => `/salons/${salons[index]?.salon.slug}/confirm`;

describe("live hold limits on the booking page", () => {
  it("refuses a third live guest hold from one address (a new browser each time) on the time step, keeping what was typed", async () => {
    const ip = nextIp();
    const statuses: number[] = [];
    for (const [index, time] of [
      [0, "10:00"],
      [1, "10:00"],
    ] as const) {
      // No cookie: every hold comes with a fresh browser key.
      const response = await browser(env.app, ip).request(
        confirmPath(index),
        postForm(holdForm(index, time)),
      );
      statuses.push(response.status);
    }
    expect(statuses).toEqual([302, 302]);
    const refused = await browser(env.app, ip).request(
      confirmPath(2),
      postForm(holdForm(2, "10:00", { "draft.name": "山田 花子", "draft.note": "前髪短め" })),
    );
    expect(refused.status).toBe(429);
    const body = await refused.json();
    expect(body.actionData.error).toMatch(/お取り置き中のお時間が上限（同時に2件まで）/);
    expect(body.actionData.draft).toEqual({ name: "山田 花子", note: "前髪短め" });
    // Another address is not affected.
    const other = await browser(env.app).request(confirmPath(2), postForm(holdForm(2, "11:00")));
    expect(other.status).toBe(302);
  });

  it("lets a visitor re-pick times at one salon as often as they like: the earlier hold is released", async () => {
    const guest = browser(env.app);
    for (const time of ["12:00", "12:30", "13:00", "13:30"]) {
      const response = await guest.request(confirmPath(0), postForm(holdForm(0, time)));
      expect({ time, status: response.status }).toEqual({ time, status: 302 });
    }
  });

  it("caps a member's live holds across salons, through the page", async () => {
    const { b } = await signedInMember(database, env, "hoarder");
    expect((await b.request(confirmPath(0), postForm(holdForm(0, "15:00")))).status).toBe(302);
    expect((await b.request(confirmPath(1), postForm(holdForm(1, "15:00")))).status).toBe(302);
    const refused = await b.request(confirmPath(2), postForm(holdForm(2, "15:00")));
    expect(refused.status).toBe(429);
    expect((await refused.json()).actionData.error).toMatch(/約10分後/);
  });
});

describe("live hold limits on POST /api/holds", () => {
  it("answers 429 too_many_holds with Retry-After past the account's limit; re-picking is fine", async () => {
    const server = createApiTestApp(database, { env: limits });
    try {
      const user = await apiUser(server.app);
      const hold = (index: number, time: string) =>
        user.request("/api/holds", {
          method: "POST",
          json: {
            salonId: salons[index]?.salon.slug,
            menuIds: [salons[index]?.menu.id],
            start: `${date()}T${time}:00+09:00`,
          },
        });
      expect((await hold(0, "17:00")).status).toBe(201);
      expect((await hold(1, "17:00")).status).toBe(201);
      const refused = await hold(2, "17:00");
      expect(refused.status).toBe(429);
      const retryAfter = Number(refused.headers.get("retry-after"));
      expect(retryAfter).toBeGreaterThan(500);
      expect(retryAfter).toBeLessThanOrEqual(600);
      const { error } = await refused.json();
      expect(error).toMatchObject({ code: "too_many_holds", limit: 2, retryAfter });
      expect(error.message).toMatch(/お取り置き中のお時間が上限/);
      // Another time at a salon the account holds replaces that hold.
      expect((await hold(0, "18:00")).status).toBe(201);
    } finally {
      await server.close();
    }
  });
});
