import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as csvRoute from "../../app/routes/owner.salons.$id.bookings.csv";
import { localToInstant } from "../../common/local-time";
import { newBookingNumber } from "../../server/bookings/booking-number";
import {
  auditLog,
  bookingMenus,
  bookings,
  checkoutPayments,
  checkouts,
  coupons,
  menus,
  salonMembers,
  salonOwners,
} from "../../server/db/schema";
import { bookingsCsvHeader, taxIncluded } from "../../server/owner/bookings-export.server";
import { setRole } from "../support/accounts";
import { buildBooking, buildMenu, buildSalonWithStaff } from "../support/builders";
import { createRouteApp, signedInMember } from "../support/route-app";
import { withTestDatabase } from "../support/test-database";

/**
 * /owner/salons/{id}/bookings.csv?from=&to= (issue 29, point 5; decision
 * 0049): the salon's bookings of a period for its accountant, as Japanese
 * Excel opens them (UTF-8 with BOM, CRLF), quoted and with formulas
 * defused, menus as booked, the period in the salon's zone, streamed across
 * pages, audited; a bad period is a Japanese 400; nobody else's salon.
 */
const database = withTestDatabase();
let env: ReturnType<typeof createRouteApp>;
beforeAll(() => {
  env = createRouteApp(database, [{ path: "/owner/salons/:id/bookings.csv", module: csvRoute }]);
});

const TZ = "Asia/Tokyo";
const at = (date: string, time: string) => localToInstant(date, time, TZ);
const minutes = (start: Date, n: number) => new Date(start.getTime() + n * 60_000);

async function ownerOf(salonId: string) {
  const member = await signedInMember(database, env, "owner");
  await setRole(database.db, member.email, "owner");
  await database.db.insert(salonOwners).values({ salonId, userId: member.userId });
  return member;
}

/** RFC 4180 records of a CSV text (quoted fields may hold commas, quotes and line breaks). */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      record.push(field);
      field = "";
    } else if (c === "\r" && text[i + 1] === "\n") {
      record.push(field);
      records.push(record);
      record = [];
      field = "";
      i++;
    } else field += c;
  }
  if (field !== "" || record.length > 0) throw new Error("the last record has no CRLF");
  return records;
}

/** The file's bytes as text, after checking the BOM; its records, header first. */
async function download(response: Response) {
  const bytes = new Uint8Array(await response.arrayBuffer());
  expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const text = new TextDecoder().decode(bytes.slice(3));
  return { text, records: parseCsv(text) };
}

const column = (name: (typeof bookingsCsvHeader)[number]) => bookingsCsvHeader.indexOf(name);

describe("taxIncluded", () => {
  it("is the 10 % inside a tax-included amount, rounded down", () => {
    expect(taxIncluded(11_000)).toBe(1000);
    expect(taxIncluded(1000)).toBe(90); // 90.9…
    expect(taxIncluded(11_754)).toBe(1068); // 1068.5…: down, not to the nearest
    expect(taxIncluded(0)).toBe(0);
  });
});

describe("the bookings CSV", () => {
  it("has the accountant's columns, quoted and defused, menus as booked, the period in the salon's zone; audited", async () => {
    const { salon, stylists } = await buildSalonWithStaff(database.db, { staffCount: 2 });
    const aoi = stylists[0]?.id ?? "";
    const ren = stylists[1]?.id ?? "";
    const cut = await buildMenu(database.db, salon.id, { name: "カット", price: 5500 });
    const color = await buildMenu(database.db, salon.id, { name: "カラー", price: 7700 });
    const fringe = await buildMenu(database.db, salon.id, { name: "前髪カット", price: 1000 });
    const old = await buildMenu(database.db, salon.id, { name: "旧ヘッドスパ", price: 4400 });
    const [coupon] = await database.db
      .insert(coupons)
      .values({
        salonId: salon.id,
        title: "初回 2,000円オフ",
        discountKind: "amount",
        discountValue: 2000,
        validFrom: "2026-01-01",
        target: "new",
      })
      .returning();

    let made = 0;
    const book = async (
      startsAt: Date,
      values: Partial<typeof bookings.$inferInsert>,
      booked: { id: string; name: string; price: number }[] = [],
    ) => {
      const row = await buildBooking(database.db, {
        salonId: salon.id,
        staffId: aoi,
        startsAt,
        endsAt: minutes(startsAt, 60),
        status: "confirmed",
        customerName: `お客 ${++made}`,
        customerKana: "オキャク",
        totalPrice: booked.reduce((sum, m) => sum + m.price, 0),
        ...values,
      });
      if (booked.length > 0) {
        await database.db.insert(bookingMenus).values(
          booked.map((menu, position) => ({
            salonId: salon.id,
            bookingId: row.id,
            position,
            menuId: menu.id,
            name: menu.name,
            price: menu.price,
            durationMinutes: 30,
          })),
        );
      }
      return row;
    };

    // Out: 23:30 the evening before the period (14:30 UTC that day).
    await book(at("2026-11-01", "23:30"), { customerName: "前日 夜" }, [cut]);
    // In, first: 08:00 on the first day is 23:00 UTC the day before.
    const early = await book(
      at("2026-11-02", "08:00"),
      {
        customerName: '山田,"太郎"\n',
        customerKana: '=HYPERLINK("http://evil")',
        source: "phone",
        staffRequested: false,
        status: "completed",
      },
      [fringe],
    );
    // In: two menus, 指名料 550, the coupon: 13,750 list, 2,000 off, 11,750 paid.
    const known = await book(
      at("2026-11-02", "10:00"),
      {
        customerName: "佐藤 一郎",
        nominationFee: 550,
        couponId: coupon?.id,
        totalPrice: 11_750,
        studentDeclared: true,
      },
      [cut, color],
    );
    // In: a menu since renamed, repriced and retired keeps what was booked.
    const walkIn = await book(
      at("2026-11-02", "12:00"),
      { customerName: "鈴木 花子", source: "walk_in", status: "completed" },
      [old],
    );
    // Its 会計 (decision 0079): 5,000 with a retail item, split between cash and card.
    const [paid] = await database.db
      .insert(checkouts)
      .values({
        salonId: salon.id,
        bookingId: walkIn.id,
        subtotal: 5000,
        total: 5000,
        tax: 454,
        method: "split",
        cashReceived: 3000,
        change: 0,
      })
      .returning();
    await database.db.insert(checkoutPayments).values([
      { salonId: salon.id, checkoutId: paid?.id ?? "", method: "cash", amount: 3000 },
      { salonId: salon.id, checkoutId: paid?.id ?? "", method: "card", amount: 2000 },
    ]);
    await database.db
      .update(menus)
      .set({ name: "新ヘッドスパ", price: 6600, published: false })
      .where(eq(menus.id, old.id));
    // In: cancellations of each kind on the other stylist, and a no-show.
    await book(
      at("2026-11-02", "10:30"),
      {
        staffId: ren,
        customerName: "キャンセル 客",
        status: "cancelled_by_user",
        cancelledBy: "user",
        cancelledAt: at("2026-11-01", "09:00"),
      },
      [cut],
    );
    await book(
      at("2026-11-02", "12:30"),
      {
        staffId: ren,
        customerName: "当日 連絡",
        status: "cancelled_by_user",
        cancelledBy: "salon",
        cancelCategory: "customer_same_day",
        cancelledAt: at("2026-11-02", "09:00"),
      },
      [color],
    );
    await book(at("2026-11-03", "10:00"), { customerName: "来ない 客", status: "no_show" }, [cut]);
    // Not rows: a blocked time and a visitor's hold, both inside the period.
    await book(at("2026-11-03", "12:00"), {
      kind: "block",
      customerName: "",
      customerKana: "",
      salonNote: "休憩",
      totalPrice: 0,
    });
    await book(
      at("2026-11-03", "14:00"),
      { customerName: "仮押さえ 客", status: "held", holdExpiresAt: at("2026-11-03", "14:10") },
      [cut],
    );
    // In, last: 23:30 on the last day.
    await book(at("2026-11-03", "23:30"), { customerName: "最終日 夜", staffId: ren }, [cut]);
    // Out: 00:00 the day after (15:00 UTC on the last day).
    await book(at("2026-11-04", "00:00"), { customerName: "翌日 零時" }, [cut]);
    // Another salon's booking in the period is never here.
    const other = await buildSalonWithStaff(database.db);
    await buildBooking(database.db, {
      salonId: other.salon.id,
      staffId: other.stylists[0]?.id ?? "",
      startsAt: at("2026-11-02", "11:00"),
      endsAt: at("2026-11-02", "12:00"),
      customerName: "他店 客",
    });

    const owner = await ownerOf(salon.id);
    const path = `/owner/salons/${salon.id}/bookings.csv?from=2026-11-02&to=2026-11-03`;
    const response = await owner.b.request(path);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toBe(
      'attachment; filename="bookings-20261102-20261103.csv"',
    );
    const { text, records } = await download(response);
    expect(text.endsWith("\r\n")).toBe(true);
    // Every line ends in CRLF: a bare LF is only ever inside the quoted name.
    expect(text.replaceAll("\r\n", "").replace('山田,""太郎""\n', "")).not.toMatch(/[\r\n]/);
    expect(text.split("\r\n")[0]).toBe(
      "日付,開始,終了,予約番号,お客様名,フリガナ,予約経路,メニュー,スタッフ,指名,クーポン,クーポン対象,学割,定価,割引,金額,税込金額のうち消費税（10%）,ステータス,キャンセル区分,会計,会計金額,会計金額のうち消費税（10%）,支払方法",
    );
    // The quoted name and the defused kana, as bytes on the line.
    expect(text).toContain(
      `2026-11-02,08:00,09:00,${early.bookingNumber},"山田,""太郎""\n","'=HYPERLINK(""http://evil"")",電話,前髪カット,スタイリスト1,指名なし,,,,1000,0,1000,90,施術完了,,会計未登録（金額は予約時の見込み）,,,\r\n`,
    );

    const rows = records.slice(1);
    const names = rows.map((row) => row[column("お客様名")]);
    expect(names).toEqual([
      '山田,"太郎"\n',
      "佐藤 一郎",
      "キャンセル 客",
      "鈴木 花子",
      "当日 連絡",
      "来ない 客",
      "最終日 夜",
    ]);
    const row = (name: string) => {
      const found = rows.find((r) => r[column("お客様名")] === name);
      if (!found) throw new Error(`no row for ${name}`);
      return Object.fromEntries(bookingsCsvHeader.map((h, i) => [h, found[i]]));
    };
    expect(row("佐藤 一郎")).toEqual({
      日付: "2026-11-02",
      開始: "10:00",
      終了: "11:00",
      予約番号: known.bookingNumber,
      お客様名: "佐藤 一郎",
      フリガナ: "オキャク",
      予約経路: "ネット",
      メニュー: "カット、カラー",
      スタッフ: "スタイリスト1",
      指名: "指名あり",
      クーポン: "初回 2,000円オフ",
      クーポン対象: "新規",
      学割: "学生",
      定価: "13750",
      割引: "2000",
      金額: "11750",
      "税込金額のうち消費税（10%）": "1068",
      ステータス: "予約確定",
      キャンセル区分: "",
      会計: "",
      会計金額: "",
      "会計金額のうち消費税（10%）": "",
      支払方法: "",
    });
    expect(row("鈴木 花子")).toMatchObject({
      予約経路: "来店",
      メニュー: "旧ヘッドスパ",
      定価: "4400",
      金額: "4400",
      "税込金額のうち消費税（10%）": "400",
      会計: "会計済み",
      会計金額: "5000",
      "会計金額のうち消費税（10%）": "454",
      支払方法: "組み合わせ（現金 3,000円・カード 2,000円）",
    });
    expect(row("キャンセル 客")).toMatchObject({
      スタッフ: "スタイリスト2",
      ステータス: "お客様キャンセル",
      キャンセル区分: "お客様",
    });
    expect(row("当日 連絡")).toMatchObject({
      ステータス: "お客様キャンセル（当日連絡）",
      キャンセル区分: "お客様都合（当日連絡）",
    });
    expect(row("来ない 客")).toMatchObject({ ステータス: "無断キャンセル", キャンセル区分: "" });
    expect(row("最終日 夜")).toMatchObject({ 日付: "2026-11-03", 開始: "23:30", 終了: "00:30" });

    const entries = await database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.salonId, salon.id), eq(auditLog.action, "bookings.export")));
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      actorUserId: owner.userId,
      targetType: "salon",
      targetId: salon.id,
      after: { from: "2026-11-02", to: "2026-11-03" },
    });
  });

  it("streams every booking once across pages, ties at the same start included", async () => {
    const { salon, stylists } = await buildSalonWithStaff(database.db, { staffCount: 3 });
    const staffIds = stylists.map((s) => s.id);
    // 3 stylists × 401 six-minute slots over two days: 1,203 rows; the first page of 500 ends
    // on the second of three bookings at the same start, which the next page must begin with.
    const rows: (typeof bookings.$inferInsert)[] = [];
    for (let slot = 0; slot < 401; slot++) {
      const startsAt = new Date(at("2026-12-01", "00:00").getTime() + slot * 6 * 60_000);
      for (const staffId of staffIds) {
        rows.push({
          id: randomUUID(),
          salonId: salon.id,
          staffId,
          bookingNumber: newBookingNumber(),
          startsAt,
          endsAt: minutes(startsAt, 6),
          occupiedUntil: minutes(startsAt, 6),
          totalPrice: 1000,
          customerName: `客 ${rows.length}`,
        });
      }
    }
    await database.db.insert(bookings).values(rows);
    const owner = await ownerOf(salon.id);
    const response = await owner.b.request(
      `/owner/salons/${salon.id}/bookings.csv?from=2026-12-01&to=2026-12-02`,
    );
    expect(response.status).toBe(200);
    const { records } = await download(response);
    const numbers = records.slice(1).map((r) => r[column("予約番号")]);
    expect(numbers).toHaveLength(rows.length);
    expect(new Set(numbers)).toEqual(new Set(rows.map((r) => r.bookingNumber)));
    const starts = records.slice(1).map((r) => `${r[column("日付")]} ${r[column("開始")]}`);
    expect(starts).toEqual([...starts].sort());
  });

  it("reads days and times in the salon's own zone, across a change of clocks", async () => {
    // New York turns its clocks from 02:00 to 03:00 on 8 March 2026: that day has 23 hours.
    const zone = "America/New_York";
    const { salon, stylists } = await buildSalonWithStaff(database.db, {
      salon: { timeZone: zone },
    });
    const local = (date: string, time: string) => localToInstant(date, time, zone);
    const starts = [
      ["2026-03-07", "23:30"],
      ["2026-03-08", "01:30"],
      ["2026-03-08", "03:30"],
      ["2026-03-08", "23:00"],
      ["2026-03-09", "00:00"],
    ] as const;
    for (const [date, time] of starts) {
      const startsAt = local(date, time);
      await buildBooking(database.db, {
        salonId: salon.id,
        staffId: stylists[0]?.id ?? "",
        startsAt,
        endsAt: minutes(startsAt, 45),
        customerName: `${date} ${time}`,
      });
    }
    const owner = await ownerOf(salon.id);
    const response = await owner.b.request(
      `/owner/salons/${salon.id}/bookings.csv?from=2026-03-08&to=2026-03-08`,
    );
    const { records } = await download(response);
    expect(
      records.slice(1).map((r) => [r[column("日付")], r[column("開始")], r[column("終了")]]),
    ).toEqual([
      ["2026-03-08", "01:30", "03:15"],
      ["2026-03-08", "03:30", "04:15"],
      ["2026-03-08", "23:00", "23:45"],
    ]);
  });

  it("answers a bad or missing period with a Japanese 400, and writes no audit entry", async () => {
    const { salon } = await buildSalonWithStaff(database.db);
    const owner = await ownerOf(salon.id);
    const base = `/owner/salons/${salon.id}/bookings.csv`;
    const cases: [string, RegExp][] = [
      ["", /開始日（from）を指定してください/],
      ["?from=2026-11-01", /終了日（to）を指定してください/],
      ["?from=2026-11-30&to=2026-11-01", /終了日（to）は開始日（from）と同じ日か/],
      ["?from=2026-01-01&to=2027-01-02", /期間は366日以内/],
      ["?from=2026-02-30&to=2026-03-01", /実在する日付/],
      ["?from=yesterday&to=2026%2F11%2F01", /実在する日付/],
      [`?from=${"9".repeat(100)}&to=2026-01-01`, /日付で指定してください/],
      ["?from=1999-12-31&to=2000-01-01", /2000年〜2099年/],
    ];
    for (const [query, message] of cases) {
      const response = await owner.b.request(`${base}${query}`);
      expect(response.status, query).toBe(400);
      expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
      const body = await response.text();
      expect(body, query).toMatch(message);
      expect(body).toContain("?from=2026-11-01&to=2026-11-30");
    }
    // A year with its leap day is the longest period: 366 days, both ends included.
    const year = await owner.b.request(`${base}?from=2028-01-01&to=2028-12-31`);
    expect(year.status).toBe(200);
    const { records } = await download(year);
    expect(records).toEqual([[...bookingsCsvHeader]]);
    const entries = await database.db
      .select({ after: auditLog.after })
      .from(auditLog)
      .where(and(eq(auditLog.salonId, salon.id), eq(auditLog.action, "bookings.export")));
    expect(entries).toEqual([{ after: { from: "2028-01-01", to: "2028-12-31" } }]);
  });

  it("is for the owner and an administrator: another salon's owner and a member get 404, a guest signs in", async () => {
    const { salon } = await buildSalonWithStaff(database.db);
    const other = await buildSalonWithStaff(database.db);
    const path = `/owner/salons/${salon.id}/bookings.csv?from=2026-11-01&to=2026-11-30`;
    const stranger = await ownerOf(other.salon.id);
    expect((await stranger.b.request(path)).status).toBe(404);
    const member = await signedInMember(database, env, "member");
    expect((await member.b.request(path)).status).toBe(404);
    const admin = await signedInMember(database, env, "admin");
    await setRole(database.db, admin.email, "admin");
    const answer = await admin.b.request(path);
    expect(answer.status).toBe(200);
    await answer.body?.cancel();
    const guest = await env.app.request(`http://localhost:3000${path}`, { redirect: "manual" });
    expect(guest.status).toBe(302);
    expect(guest.headers.get("location")).toBe(`/signin?redirect=${encodeURIComponent(path)}`);
    // Nothing of it was audited for the ones refused.
    const entries = await database.db
      .select({ actor: auditLog.actorUserId })
      .from(auditLog)
      .where(and(eq(auditLog.salonId, salon.id), eq(auditLog.action, "bookings.export")));
    expect(entries).toEqual([{ actor: admin.userId }]);
  });

  it("is a manager's, and a receptionist's and a stylist's 404", async () => {
    const { salon, stylists } = await buildSalonWithStaff(database.db);
    const path = `/owner/salons/${salon.id}/bookings.csv?from=2026-11-01&to=2026-11-30`;
    const withRole = async (role: "manager" | "reception" | "stylist") => {
      const person = await signedInMember(database, env, role);
      await database.db.insert(salonMembers).values({
        salonId: salon.id,
        userId: person.userId,
        role,
        staffId: role === "stylist" ? (stylists[0]?.id ?? null) : null,
      });
      return person;
    };
    const manager = await withRole("manager");
    const answer = await manager.b.request(path);
    expect(answer.status).toBe(200);
    await answer.body?.cancel();
    for (const role of ["reception", "stylist"] as const) {
      const person = await withRole(role);
      const refused = await person.b.request(path);
      expect(refused.status, role).toBe(404);
    }
    const entries = await database.db
      .select({ actor: auditLog.actorUserId })
      .from(auditLog)
      .where(and(eq(auditLog.salonId, salon.id), eq(auditLog.action, "bookings.export")));
    expect(entries).toEqual([{ actor: manager.userId }]);
  });
});
