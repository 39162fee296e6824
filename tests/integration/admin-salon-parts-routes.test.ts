import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { saveProfile } from "../../server/accounts/profile";
import { auditLog, menus, salons, staff, users } from "../../server/db/schema";
import { browser, setRole, signUpThroughApi, uniqueEmail } from "../support/accounts";
import { buildSalonWithStaff } from "../support/builders";
import { createRouterApp } from "../support/router-app";
import { withTestDatabase } from "../support/test-database";

// The スタッフ, メニュー and クーポン tabs through the real routes, without
// JavaScript: access, the 404 screen for bad ids, redirects after a save,
// refusals that keep what was typed, and no 5xx.
const database = withTestDatabase();
let site: Awaited<ReturnType<typeof createRouterApp>>;

beforeAll(async () => {
  site = await createRouterApp(database);
});
afterAll(async () => {
  await site?.close();
});

type Kind = "guest" | "user" | "owner" | "admin";

async function person(kind: Kind) {
  const b = browser(site.app);
  const email = uniqueEmail(kind);
  if (kind === "guest") return b;
  const signIn = await signUpThroughApi(b, email, "secret12");
  expect(signIn.status).toBe(200);
  const [user] = await database.db
    .update(users)
    .set({ emailVerified: true })
    .where(eq(users.email, email))
    .returning();
  if (!user) throw new Error("no user");
  await saveProfile(database.db, user.id, {
    name: "山田 花子",
    nameKana: "ヤマダ ハナコ",
    phone: "09012345678",
    gender: "female",
    birthDate: null,
  });
  if (kind !== "user") await setRole(database.db, email, kind);
  return b;
}

const form = (fields: Record<string, string | string[]>) => {
  const body = new URLSearchParams();
  for (const [key, value] of Object.entries(fields)) {
    for (const item of Array.isArray(value) ? value : [value]) body.append(key, item);
  }
  return {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: body.toString(),
  };
};

async function versionOf(salonId: string) {
  const [row] = await database.db
    .select({ version: salons.version })
    .from(salons)
    .where(eq(salons.id, salonId));
  return String(row?.version ?? 0);
}

const tabs = ["staff", "menus", "coupons"] as const;

describe("access to the tabs", () => {
  it("sends guests to sign in, shows users and owners the 404 screen, and changes nothing for them", async () => {
    const { salon } = await buildSalonWithStaff(database.db);
    const table: Record<string, string[]> = {};
    for (const kind of ["guest", "user", "owner", "admin"] as const) {
      const b = await person(kind);
      const row: string[] = [];
      for (const tab of tabs) {
        const response = await b.request(`/admin/salons/edit/${salon.id}/${tab}`);
        row.push(String(response.status));
      }
      const post = await b.request(
        `/admin/salons/edit/${salon.id}/menus`,
        form({
          intent: "menu-create",
          version: await versionOf(salon.id),
          category: "カット",
          name: `by-${kind}`,
          price: "1000",
          durationMinutes: "30",
          staffScope: "all",
        }),
      );
      row.push(`POST ${post.status}`);
      table[kind] = row;
    }
    expect(table).toEqual({
      guest: ["302", "302", "302", "POST 302"],
      user: ["404", "404", "404", "POST 404"],
      owner: ["404", "404", "404", "POST 404"],
      admin: ["200", "200", "200", "POST 302"],
    });
    const added = await database.db.select().from(menus).where(eq(menus.salonId, salon.id));
    expect(added.filter((m) => m.name.startsWith("by-")).map((m) => m.name)).toEqual(["by-admin"]);
  });

  it("shows the 404 screen for a malformed or unknown salon id", async () => {
    const b = await person("admin");
    for (const tab of tabs) {
      for (const id of ["not-a-uuid", "00000000-0000-4000-8000-000000000000", "%27%20or%201%3D1"]) {
        const response = await b.request(`/admin/salons/edit/${id}/${tab}`);
        expect(response.status, `${tab} ${id}`).toBe(404);
      }
    }
  });
});

describe("saving without JavaScript", () => {
  it("redirects after a save, to the stylist and with the outcome", async () => {
    const b = await person("admin");
    const { salon, menu } = await buildSalonWithStaff(database.db);
    const response = await b.request(
      `/admin/salons/edit/${salon.id}/staff`,
      form({
        intent: "staff-create",
        version: await versionOf(salon.id),
        name: "ルート 太郎",
        kana: "るーと たろう",
        role: "スタイリスト",
        profile: "",
        photoUrl: "",
        yearsOfExperience: "",
        specialties: "",
        menuIds: [menu.id],
      }),
    );
    expect(response.status).toBe(302);
    const location = response.headers.get("location") ?? "";
    expect(location).toMatch(
      new RegExp(`^/admin/salons/edit/${salon.id}/staff\\?staff=[0-9a-f-]{36}&done=staff-created$`),
    );
    const page = await b.request(location);
    const html = await page.text();
    expect(html).toContain("スタッフを追加しました。");
    expect(html).toContain("勤務パターン（毎週）");
    expect(html).toContain("ルート 太郎");
    const [entry] = await database.db.select().from(auditLog).where(eq(auditLog.salonId, salon.id));
    expect(entry?.action).toBe("staff.create");
  });

  it("answers a refused save with 400 and the page showing what was typed", async () => {
    const b = await person("admin");
    const { salon } = await buildSalonWithStaff(database.db);
    const response = await b.request(
      `/admin/salons/edit/${salon.id}/menus`,
      form({
        intent: "menu-create",
        version: await versionOf(salon.id),
        category: "カラー",
        name: "入力が残るメニュー",
        description: "説明も残る",
        price: "五千円",
        durationMinutes: "60",
        staffScope: "all",
      }),
    );
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain("料金は半角数字で入力してください。");
    expect(html).toContain('value="入力が残るメニュー"');
    expect(html).toContain("説明も残る");
    expect(html).toContain('value="五千円"');
  });

  it("answers a stale page with 409, the Japanese conflict message and the typed values", async () => {
    const b = await person("admin");
    const { salon, stylists } = await buildSalonWithStaff(database.db, { staffCount: 2 });
    const stale = await versionOf(salon.id);
    const moved = await b.request(
      `/admin/salons/edit/${salon.id}/staff`,
      form({ intent: "staff-down", version: stale, staffId: stylists[0]?.id ?? "" }),
    );
    expect(moved.status).toBe(302);
    const response = await b.request(
      `/admin/salons/edit/${salon.id}/coupons`,
      form({
        intent: "coupon-create",
        version: stale,
        title: "古い画面のクーポン",
        description: "",
        discountKind: "amount",
        discountValue: "500",
        conditions: "",
        target: "all",
        weekdays: ["0", "1", "2", "3", "4", "5", "6"],
        validFrom: "2026-12-01",
        validUntil: "",
      }),
    );
    expect(response.status).toBe(409);
    const html = await response.text();
    expect(html).toContain("他の管理者がこのサロンを更新しました");
    expect(html).toContain('value="古い画面のクーポン"');
    // The page keeps the version it was loaded with (decision 0017) and offers the latest.
    expect(html).toContain(`name="version" value="${stale}"`);
    expect(html).not.toContain(`name="version" value="${await versionOf(salon.id)}"`);
    expect(html).toContain("最新の内容を表示する");
    const [order] = await database.db
      .select({ sortOrder: staff.sortOrder })
      .from(staff)
      .where(eq(staff.id, stylists[0]?.id ?? ""));
    expect(order?.sortOrder).toBe(1);
  });

  it("never answers hostile input with a 5xx", async () => {
    const b = await person("admin");
    const { salon } = await buildSalonWithStaff(database.db);
    const version = await versionOf(salon.id);
    const gets = [
      "staff?staff=%00",
      "staff?staff=' or 1=1",
      `staff?staff=${"a".repeat(5000)}`,
      "menus?menu=zzz",
      "coupons?coupon[]=1",
      "staff?done=<script>",
    ];
    for (const query of gets) {
      const response = await b.request(`/admin/salons/edit/${salon.id}/${query}`);
      expect(response.status, query).toBeLessThan(500);
    }
    const posts: [string, Record<string, string | string[]>][] = [
      ["staff", { intent: "staff-update", version, staffId: "../../etc", name: "x" }],
      ["staff", { intent: "schedule-save", version, staffId: "x", pattern: "\u0000" }],
      ["staff", {}],
      ["menus", { intent: "menu-create", version: "9".repeat(40), price: "1".repeat(400) }],
      ["menus", { intent: ["menu-up", "menu-down"], version, menuId: ["a", "b"] }],
      ["coupons", { intent: "coupon-create", version, validFrom: "9999-99-99", menuIds: ["x"] }],
    ];
    for (const [tab, fields] of posts) {
      const response = await b.request(`/admin/salons/edit/${salon.id}/${tab}`, form(fields));
      expect(response.status, JSON.stringify(fields).slice(0, 60)).toBeGreaterThanOrEqual(400);
      expect(response.status, JSON.stringify(fields).slice(0, 60)).toBeLessThan(500);
    }
  });
});
