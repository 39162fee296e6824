import { beforeAll, describe, expect, it } from "vitest";
import * as confirmRoute from "../../app/routes/salons.$id.confirm";
import { addDays, calendarDay } from "../../common/local-time";
import { browser } from "../support/accounts";
import { buildSalonWithStaff } from "../support/builders";
import { createRouteApp, postForm, signedInMember } from "../support/route-app";
import { withTestDatabase } from "../support/test-database";

// The booking page's hold and confirm actions are limited like POST /api/holds
// and POST /api/bookings (issue 15, point 9): two attempts a minute here.
const database = withTestDatabase();
let env: ReturnType<typeof createRouteApp>;
let slug: string;
let menuId: string;

beforeAll(async () => {
  env = createRouteApp(database, [{ path: "/salons/:id/confirm", module: confirmRoute }], {
    BOOKING_RATE_LIMIT_PER_IP: "2",
    BOOKING_RATE_LIMIT_PER_ACCOUNT: "2",
  });
  const built = await buildSalonWithStaff(database.db, {
    staffCount: 1,
    salon: { slug: "limited-salon" },
  });
  slug = built.salon.slug;
  menuId = built.menu.id;
});

describe("/salons/:id/confirm rate limits", () => {
  it("answers the third hold attempt from one address with a 429 and a Japanese message", async () => {
    const guest = browser(env.app);
    const date = addDays(calendarDay(new Date(), "Asia/Tokyo"), 2);
    const hold = (time: string) => ({
      intent: "hold",
      menu: menuId,
      date,
      start: `${date}T${time}:00+09:00`,
    });
    const statuses: number[] = [];
    for (const [attempt, time] of ["11:00", "13:00", "15:00"].entries()) {
      const response = await guest.request(`/salons/${slug}/confirm`, postForm(hold(time)));
      statuses.push(response.status);
      if (attempt === 2) {
        const body = await response.json();
        expect(body.actionData.error).toMatch(/操作が多すぎます。\d+秒ほど待ってから/);
      }
    }
    expect(statuses).toEqual([302, 302, 429]);
    // Another visitor (another address) is not affected.
    const other = browser(env.app);
    const response = await other.request(`/salons/${slug}/confirm`, postForm(hold("17:00")));
    expect(response.status).toBe(302);
  });

  it("answers the third confirm attempt with a 429, keeping what was typed", async () => {
    const { b } = await signedInMember(database, env, "limited");
    const contact = {
      name: "山田 花子",
      nameKana: "ヤマダ ハナコ",
      phone: "09012345678",
      email: "hanako@example.com",
      note: "前髪は短めに",
    };
    const confirm = {
      intent: "confirm",
      hold: "00000000-0000-4000-8000-000000000000",
      ...contact,
    };
    const statuses: number[] = [];
    let last: { actionData: { errors: { form?: string }; values: Record<string, string> } } | null =
      null;
    for (let attempt = 0; attempt < 3; attempt++) {
      const response = await b.request(`/salons/${slug}/confirm`, postForm(confirm));
      statuses.push(response.status);
      last = await response.json();
    }
    expect(statuses[0]).not.toBe(429);
    expect(statuses[1]).not.toBe(429);
    expect(statuses[2]).toBe(429);
    expect(last?.actionData.errors.form).toMatch(/操作が多すぎます/);
    expect(last?.actionData.values).toMatchObject(contact);
  });
});
