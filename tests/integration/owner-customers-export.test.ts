import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as csvRoute from "../../app/routes/owner.salons.$id.customers.csv";
import { attachCustomer } from "../../server/bookings/salon-customers.server";
import { auditLog, salonCustomers, salonOwners } from "../../server/db/schema";
import { csvField } from "../../server/owner/csv.server";
import { setRole } from "../support/accounts";
import { buildBooking, buildSalonWithStaff } from "../support/builders";
import { createRouteApp, signedInMember } from "../support/route-app";
import { withTestDatabase } from "../support/test-database";

/**
 * /owner/salons/{id}/customers.csv: the salon's customers for its own CRM,
 * as Japanese Excel opens it (UTF-8 with BOM, CRLF), merged records counted
 * in, formulas defused, audited, and never another salon's.
 */
const database = withTestDatabase();
let env: ReturnType<typeof createRouteApp>;
beforeAll(() => {
  env = createRouteApp(database, [{ path: "/owner/salons/:id/customers.csv", module: csvRoute }]);
});

const at = (local: string) => new Date(`${local}:00+09:00`);

async function ownerOf(salonId: string) {
  const member = await signedInMember(database, env, "owner");
  await setRole(database.db, member.email, "owner");
  await database.db.insert(salonOwners).values({ salonId, userId: member.userId });
  return member;
}

describe("csvField", () => {
  it("quotes commas, quotes and line breaks, and defuses formulas", () => {
    expect(csvField("山田 花子")).toBe("山田 花子");
    expect(csvField('a,"b"\nc')).toBe('"a,""b""\nc"');
    expect(csvField('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvField("+81")).toBe("'+81");
    expect(csvField(-5)).toBe("-5");
  });
});

describe("the customers' CSV", () => {
  it("is one row per person with their stats, BOM and CRLF, audited; nobody else's", async () => {
    const { salon, stylists } = await buildSalonWithStaff(database.db);
    const other = await buildSalonWithStaff(database.db);
    const staffId = stylists[0]?.id ?? "";
    const attach = (salonId: string, name: string, kana: string, phone: string) =>
      database.db.transaction((tx) =>
        attachCustomer(tx, { salonId, userId: null, name, kana, phone, email: "" }),
      );
    const hanako = await attach(salon.id, "山田 花子", "ヤマダ ハナコ", "09011112222");
    // Her husband from the same phone: merged into her record automatically, counted with her.
    const husband = await attach(salon.id, "山田 太郎", "ヤマダ タロウ", "09011112222");
    const ichiro = await attach(salon.id, "佐藤 一郎", "サトウ イチロウ", "09033334444");
    await attach(other.salon.id, "他店 客", "タテン キャク", "09055556666");
    await database.db
      .update(salonCustomers)
      .set({ notes: '=HYPERLINK("http://evil")\nカラー希望, 敏感肌' })
      .where(eq(salonCustomers.id, ichiro));
    let made = 0;
    const visit = (customerId: string, status: "completed" | "no_show", price: number) => {
      // One after the other from 10:00 on 24 November, so none overlaps.
      const startsAt = new Date(at("2026-11-24T10:00").getTime() + made++ * 3_600_000);
      return buildBooking(database.db, {
        salonId: salon.id,
        staffId,
        startsAt,
        endsAt: new Date(startsAt.getTime() + 30 * 60_000),
        status,
        totalPrice: price,
        customerId,
      });
    };
    await visit(hanako, "completed", 5500);
    await visit(husband, "completed", 4400);
    await visit(ichiro, "no_show", 3300);

    const owner = await ownerOf(salon.id);
    const response = await owner.b.request(`/owner/salons/${salon.id}/customers.csv`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toMatch(
      /^attachment; filename="customers-\d{8}\.csv"$/,
    );
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder().decode(bytes.slice(3));
    expect(text.endsWith("\r\n")).toBe(true);
    const lines = text.split("\r\n").slice(0, -1);
    expect(lines[0]).toMatch(
      /^氏名,フリガナ,電話番号,メールアドレス,会員,来店回数,最終来店日,利用金額合計（円）/,
    );
    // Two people: the husband is inside her row; the other salon's customer is not here.
    const body = lines.slice(1).join("\r\n");
    expect(body).not.toContain("他店");
    const hanakoLine = lines.find((l) => l.startsWith("山田 花子,"));
    expect(hanakoLine).toBe(
      "山田 花子,ヤマダ ハナコ,09011112222,,,2,2026-11-24,9900,0,0,0,0,0,0,0,",
    );
    expect(body).not.toContain("山田 太郎");
    expect(body).toContain(
      `佐藤 一郎,サトウ イチロウ,09033334444,,,0,,0,0,0,0,0,0,0,1,"'=HYPERLINK(""http://evil"")\nカラー希望, 敏感肌"`,
    );

    const [entry] = await database.db.select().from(auditLog).where(eq(auditLog.salonId, salon.id));
    expect(entry).toMatchObject({ action: "customers.export", actorUserId: owner.userId });
  });

  it("is another salon's owner's 404, and a guest signs in first", async () => {
    const { salon } = await buildSalonWithStaff(database.db);
    const other = await buildSalonWithStaff(database.db);
    const stranger = await ownerOf(other.salon.id);
    const path = `/owner/salons/${salon.id}/customers.csv`;
    const refused = await stranger.b.request(path);
    expect(refused.status).toBe(404);
    const guest = await env.app.request(`http://localhost:3000${path}`, { redirect: "manual" });
    expect(guest.status).toBe(302);
    expect(guest.headers.get("location")).toBe(`/signin?redirect=${encodeURIComponent(path)}`);
  });
});
