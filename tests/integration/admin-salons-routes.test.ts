import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { saveProfile } from "../../server/accounts/profile";
import { auditLog, salons, users } from "../../server/db/schema";
import { browser, setRole, signUpThroughApi, uniqueEmail } from "../support/accounts";
import {
  buildArea,
  buildBooking,
  buildMenu,
  buildSalon,
  buildSalonWithStaff,
  buildStaff,
} from "../support/builders";
import { createRouterApp } from "../support/router-app";
import { withTestDatabase } from "../support/test-database";

// The salon pages of the admin area through the real routes: access, the
// 404 screen for bad ids, forms that keep what was typed, and no 5xx.
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
  if (kind === "guest") return { ...b, email };
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
  return { ...b, email, id: user.id };
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

const unique = () => Math.random().toString(36).slice(2, 8);

async function validFields(overrides: Record<string, string> = {}) {
  const area = await buildArea(database.db, { name: "三軒茶屋", kana: "さんげんぢゃや" });
  const fields: Record<string, string> = {
    name: "Hair ルート",
    nameKana: "ヘア ルート",
    slug: `route-${unique()}`,
    genre: "hair",
    postalCode: "154-0024",
    prefectureCode: "13",
    addressLine: "世田谷区三軒茶屋1-2-3",
    latitude: "35.6437",
    longitude: "139.6704",
    phone: "03-1234-5678",
    areaId: area.id,
    stationId: "",
    slotStepMinutes: "15",
    leadTimeMinutes: "60",
    bookingWindowDays: "60",
    cancellationCutoffHours: "24",
    bufferAfterMinutes: "0",
    holdMinutes: "10",
    closureRows: "3",
    "hours-1-0-opens": "10:00",
    "hours-1-0-closes": "20:00",
    ...overrides,
  };
  return fields;
}

describe("access to the salon pages", () => {
  it("sends guests to sign in, shows others the 404 screen", async () => {
    const salon = await buildSalon(database.db);
    const pages = ["/admin/salons", "/admin/salons/add", `/admin/salons/edit/${salon.id}`];
    const table: Record<string, string[]> = {};
    for (const kind of ["guest", "user", "owner", "admin"] as const) {
      const b = await person(kind);
      const row: string[] = [];
      for (const path of pages) {
        const response = await b.request(path);
        row.push(response.status === 302 ? "302" : String(response.status));
      }
      const post = await b.request(
        `/admin/salons/edit/${salon.id}`,
        form({ intent: "suspend", version: "1" }),
      );
      row.push(`POST ${post.status}`);
      const api = await b.request("/api/admin/postal-codes/1500001");
      row.push(`API ${api.status}`);
      table[kind] = row;
    }
    expect(table).toEqual({
      guest: ["302", "302", "302", "POST 302", "API 401"],
      user: ["404", "404", "404", "POST 404", "API 403"],
      owner: ["404", "404", "404", "POST 404", "API 403"],
      admin: ["200", "200", "200", "POST 302", "API 200"],
    });
    // Only the admin's POST did anything.
    const [row] = await database.db.select().from(salons).where(eq(salons.id, salon.id));
    expect(row?.status).toBe("suspended");
    expect(row?.version).toBe(2);
  });

  it("shows the 404 screen for a malformed or unknown id, on GET and POST", async () => {
    const admin = await person("admin");
    for (const id of ["abc", "00000000-0000-4000-8000-000000000000", "%27%20or%201=1"]) {
      expect((await admin.request(`/admin/salons/edit/${id}`)).status).toBe(404);
      expect(
        (await admin.request(`/admin/salons/edit/${id}`, form({ intent: "save", version: "1" })))
          .status,
      ).toBe(404);
    }
  });
});

describe("the list page", () => {
  it("lists, searches and sorts, with links to the editor", async () => {
    const admin = await person("admin");
    const salon = await buildSalon(database.db, { name: "一覧テスト サロン", status: "draft" });
    const page = await (await admin.request("/admin/salons?q=一覧テスト&status=draft")).text();
    expect(page).toContain("一覧テスト サロン");
    expect(page).toContain(`/admin/salons/edit/${salon.id}`);
    expect(page).toContain("1件");
    const sorted = await admin.request("/admin/salons?sort=name&dir=desc&page=999");
    expect(sorted.status).toBe(200);
    expect(await sorted.text()).toContain('aria-sort="descending"');
  });
});

describe("adding and editing through the pages", () => {
  it("keeps every typed value and names each problem when the form is refused", async () => {
    const admin = await person("admin");
    const fields = await validFields({ nameKana: "rooto", latitude: "999", catchCopy: "残す文" });
    const response = await admin.request("/admin/salons/add", form(fields));
    expect(response.status).toBe(400);
    const page = await response.text();
    expect(page).toContain("入力内容を確認してください");
    expect(page).toContain("カタカナかひらがなで");
    expect(page).toContain("緯度は20〜46");
    for (const value of [
      "Hair ルート",
      "rooto",
      "999",
      "残す文",
      fields.slug,
      "世田谷区三軒茶屋1-2-3",
    ]) {
      expect(page).toContain(`value="${value}"`);
    }
  });

  it("fills prefecture and address from the postal code without JavaScript, keeping the rest", async () => {
    const admin = await person("admin");
    const fields = await validFields({
      intent: "lookup",
      postalCode: "１５０ー０００１",
      prefectureCode: "",
      addressLine: "",
      name: "検索中のサロン",
    });
    const response = await admin.request("/admin/salons/add", form(fields));
    expect(response.status).toBe(200);
    const page = await response.text();
    expect(page).toContain('value="150-0001"');
    expect(page).toContain('value="渋谷区神宮前"');
    expect(page).toContain('value="検索中のサロン"');
    expect(page).toMatch(/<option value="13" selected="">東京都<\/option>/);
    const unknown = await admin.request(
      "/admin/salons/add",
      form({ ...fields, postalCode: "999-9999" }),
    );
    expect(unknown.status).toBe(422);
    expect(await unknown.text()).toContain("この郵便番号の住所は見つかりませんでした");
  });

  it("answers the postal-code API with JSON", async () => {
    const admin = await person("admin");
    const found = await admin.request("/api/admin/postal-codes/530-0001");
    expect(await found.json()).toMatchObject({
      data: { prefecture: "大阪府", city: "大阪市北区" },
    });
    const missing = await admin.request("/api/admin/postal-codes/0000000");
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe("not_found");
  });

  it("creates a draft, then refuses a stale save keeping the typed values and the old version", async () => {
    const admin = await person("admin");
    const fields = await validFields();
    const created = await admin.request("/admin/salons/add", form(fields));
    expect(created.status).toBe(302);
    const location = created.headers.get("location") ?? "";
    expect(location).toMatch(/^\/admin\/salons\/edit\/[0-9a-f-]{36}\?done=created$/);
    const editPath = location.replace(/\?.*$/, "");
    const editor = await (await admin.request(location)).text();
    expect(editor).toContain("下書きとして登録しました");
    expect(editor).toContain("公開に必要な情報が足りません");
    expect(editor).toContain("公開中のメニュー（1件以上）");

    const other = await person("admin");
    const first = await other.request(
      editPath,
      form({ ...fields, version: "1", intent: "save", name: "もう一人の保存" }),
    );
    expect(first.status).toBe(302);
    const stale = await admin.request(
      editPath,
      form({ ...fields, version: "1", intent: "save", name: "わたしの入力" }),
    );
    expect(stale.status).toBe(409);
    const page = await stale.text();
    expect(page).toContain("他の管理者がこのサロンを更新しました");
    expect(page).toContain('value="わたしの入力"');
    expect(page).toContain('name="version" value="1"');
    expect(page).toContain("最新の内容を表示する");
    const salonId = editPath.split("/").at(-1) ?? "";
    const [row] = await database.db.select().from(salons).where(eq(salons.id, salonId));
    expect(row?.name).toBe("もう一人の保存");
  });

  it("refuses to publish an incomplete salon with the list of what is missing", async () => {
    const admin = await person("admin");
    const salon = await buildSalon(database.db, { status: "draft" });
    const response = await admin.request(
      `/admin/salons/edit/${salon.id}`,
      form({ intent: "publish", version: "1" }),
    );
    expect(response.status).toBe(422);
    const page = await response.text();
    expect(page).toContain("公開に必要な情報が足りません");
    expect(page).toContain("営業時間");
    expect(page).toContain("在籍中のスタッフ（1名以上）");
  });

  it("renames a published salon's slug and its old address answers 301 to the new one", async () => {
    const admin = await person("admin");
    const fields = await validFields();
    const created = await admin.request("/admin/salons/add", form(fields));
    const editPath = (created.headers.get("location") ?? "").replace(/\?.*$/, "");
    const salonId = editPath.split("/").at(-1) ?? "";
    await buildMenu(database.db, salonId);
    await buildStaff(database.db, salonId);
    const published = await admin.request(editPath, form({ intent: "publish", version: "1" }));
    expect(published.status).toBe(302);
    expect((await site.app.request(`/salons/${fields.slug}`)).status).toBe(200);
    const renamed = await admin.request(
      editPath,
      form({ ...fields, slug: `${fields.slug}-new`, version: "2", intent: "save" }),
    );
    expect(renamed.status).toBe(302);
    const old = await site.app.request(`/salons/${fields.slug}`);
    expect(old.status).toBe(301);
    expect(old.headers.get("location")).toBe(`/salons/${fields.slug}-new`);
    expect((await site.app.request(`/salons/${fields.slug}-new`)).status).toBe(200);
    const actions = (
      await database.db.select().from(auditLog).where(eq(auditLog.targetId, salonId))
    ).map((entry) => entry.action);
    expect(actions.sort()).toEqual(
      ["salon.create", "salon.publish", "salon.slug_redirect", "salon.update"].sort(),
    );

    // Suspended: its page is the 404 screen.
    const suspended = await admin.request(editPath, form({ intent: "suspend", version: "3" }));
    expect(suspended.status).toBe(302);
    expect((await site.app.request(`/salons/${fields.slug}-new`)).status).toBe(404);
  });

  it("refuses to delete a salon with bookings to come", async () => {
    const admin = await person("admin");
    const { salon, stylists } = await buildSalonWithStaff(database.db);
    const stylist = stylists[0];
    if (!stylist) throw new Error("no stylist");
    const start = new Date(Date.now() + 3 * 86_400_000);
    await buildBooking(database.db, {
      salonId: salon.id,
      staffId: stylist.id,
      startsAt: start,
      endsAt: new Date(start.getTime() + 3_600_000),
      status: "confirmed",
    });
    const response = await admin.request(
      `/admin/salons/edit/${salon.id}`,
      form({ intent: "delete", version: "1" }),
    );
    expect(response.status).toBe(409);
    expect(await response.text()).toContain("今後の予約が1件あるため削除できません");
  });

  it("answers hostile input with 4xx, never 5xx", async () => {
    const admin = await person("admin");
    const salon = await buildSalon(database.db);
    const hostile: Record<string, string | string[]>[] = [
      { version: "1", intent: "save", name: "x".repeat(100_000) },
      { version: "abc", intent: "save" },
      { version: "1", intent: "evil", latitude: "1e308", longitude: "-Infinity" },
      { version: "1", intent: "save", areaId: "' or 1=1 --", stationId: "../../etc" },
      { version: "1", intent: "save", closureRows: "99999999", "closure-0-date": "9999-99-99" },
      { version: "1", intent: "save", features: ["<script>", "x"], ownerIds: ["a b"] },
      { version: "99999999999999999999", intent: "publish" },
      { version: "1", intent: "lookup", postalCode: "𠮷𠮷𠮷" },
    ];
    for (const fields of hostile) {
      for (const path of ["/admin/salons/add", `/admin/salons/edit/${salon.id}`]) {
        const response = await admin.request(path, form(fields));
        expect(response.status, `${path} ${JSON.stringify(fields).slice(0, 80)}`).toBeLessThan(500);
        expect(response.status).toBeGreaterThanOrEqual(400);
      }
    }
    const list = await admin.request("/admin/salons?q=%00&page=1e9&sort[]=x&area=%27");
    expect(list.status).toBeLessThan(500);
  });
});
