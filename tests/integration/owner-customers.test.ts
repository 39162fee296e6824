import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, calendarDay, localToInstant } from "../../common/local-time";
import { confirmBooking, holdSlot } from "../../server/bookings/booking.server";
import { attachCustomer } from "../../server/bookings/salon-customers.server";
import { type DatabaseHandle, openDatabase } from "../../server/db/client";
import {
  type BookingStatus,
  bookings,
  type SalonCancelCategory,
  salonCustomers,
  salonOwners,
  users,
} from "../../server/db/schema";
import { mergeCustomers, unmergeCustomer } from "../../server/owner/customers.server";
import { browser, ORIGIN } from "../support/accounts";
import { bookingClient } from "../support/booking-client";
import { buildBooking, buildSalonWithStaff } from "../support/builders";
import { createFullApp } from "../support/full-app";
import { checkCall } from "../support/openapi-contract";
import { transactionsTakeTurns, withTestDatabase } from "../support/test-database";

/**
 * The salon's customers (顧客カルテ, issue 28, points 6, 8 and 9; decision
 * 0039) through the whole app: records made by the web confirm and the
 * salon's entries, search, stats over merged records, merge and undo
 * (pages and API), races, and privacy between salons and from the customer.
 */
const env = {
  PUBLIC_URL: ORIGIN,
  TRUST_PROXY: "true",
  E2E_LOGIN: "true",
  RATE_LIMIT_PER_IP: "1000000",
  RATE_LIMIT_PER_ACCOUNT: "1000000",
};

const database = withTestDatabase();
let full: Awaited<ReturnType<typeof createFullApp>>;
/** On PostgreSQL, a second pool on the same database: another app server. */
let second: DatabaseHandle | null = null;

type Browser = ReturnType<typeof browser>;
type Salon = Awaited<ReturnType<typeof buildSalonWithStaff>>;
let salonA: Salon;
let salonB: Salon;
let ownerA: Browser;
let ownerB: Browser;
let visitor: { b: Browser; userId: string; email: string };
let other: { b: Browser; userId: string; email: string };

const ZONE = "Asia/Tokyo";
const day = (n: number) => addDays(calendarDay(new Date(), ZONE), n);
const at = (n: number, time: string) => localToInstant(day(n), time, ZONE);
let slot = 0;
/** A free hour of stylist 1: a new day and hour each call. */
const nextStart = () => {
  slot += 1;
  return at(2 + Math.floor(slot / 9), `${String(10 + (slot % 9)).padStart(2, "0")}:00`);
};

async function signedIn(role: "user" | "owner") {
  const b = browser(full.app);
  const response = await b.request("/api/test/login", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ role }),
  });
  expect(response.status).toBe(201);
  const { email } = (await response.json()) as { email: string };
  const [user] = await database.db.select().from(users).where(eq(users.email, email));
  if (!user) throw new Error("no user");
  return { b, userId: user.id, email };
}

/** A booking through the web flow's own functions: hold, then confirm (attachCustomer runs there). */
async function webBooking(
  salon: Salon,
  userId: string,
  customer: { name: string; kana: string; phone: string; email: string },
) {
  const now = new Date();
  const hold = await holdSlot(database.db, {
    ...bookingClient(database.db),
    salonId: salon.salon.id,
    menuIds: [salon.menu.id],
    staffId: salon.stylists[0]?.id ?? null,
    start: nextStart(),
    userId,
    now,
  });
  return confirmBooking(database.db, {
    ...bookingClient(database.db),
    holdId: hold.id,
    userId,
    customer,
    notes: "",
    idempotencyKey: null,
    now,
  });
}

/** A phone or walk-in entry as the salon makes it: the record found or made, then the booking. */
async function salonEntry(
  salon: Salon,
  contact: { name: string; kana: string; phone: string; email?: string },
  options: { status?: BookingStatus; price?: number; category?: SalonCancelCategory } = {},
) {
  const customerId = await database.db.transaction((tx) =>
    attachCustomer(tx, {
      salonId: salon.salon.id,
      userId: null,
      name: contact.name,
      kana: contact.kana,
      phone: contact.phone,
      email: contact.email ?? "",
    }),
  );
  const startsAt = nextStart();
  const status = options.status ?? "confirmed";
  const booking = await buildBooking(database.db, {
    salonId: salon.salon.id,
    staffId: salon.stylists[0]?.id ?? "",
    startsAt,
    endsAt: new Date(startsAt.getTime() + 3_600_000),
    status,
    source: "walk_in",
    totalPrice: options.price ?? 5500,
    customerName: contact.name,
    customerKana: contact.kana,
    customerPhone: contact.phone,
    customerId,
    ...(status.startsWith("cancelled")
      ? {
          cancelledAt: new Date(),
          cancelledBy: status === "cancelled_by_user" ? "user" : "salon",
          cancelCategory: options.category ?? null,
        }
      : {}),
  });
  return { customerId, booking };
}

async function setStatus(
  bookingId: string,
  status: BookingStatus,
  category: SalonCancelCategory | null = null,
) {
  await database.db
    .update(bookings)
    .set({
      status,
      cancelCategory: category,
      cancelledAt: status.startsWith("cancelled") ? new Date() : null,
      // A reason means the salon entered it (decision 0065).
      cancelledBy: category
        ? "salon"
        : status === "cancelled_by_user"
          ? "user"
          : status === "cancelled_by_salon"
            ? "salon"
            : null,
    })
    .where(eq(bookings.id, bookingId));
}

/** A JSON call with the browser's session, checked against /api/openapi.json like api-client's. */
async function api(b: Browser, path: string, init: { method?: string; json?: unknown } = {}) {
  const method = init.method ?? "GET";
  const response = await b.request(path, {
    method,
    headers: { "content-type": "application/json" },
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  });
  const contentType = response.headers.get("content-type");
  const answer = contentType?.startsWith("application/json")
    ? await response.clone().json()
    : undefined;
  await checkCall(full.app, ORIGIN, {
    method,
    url: new URL(`${ORIGIN}${path}`),
    body: init.json,
    status: response.status,
    contentType,
    answer,
  });
  return { status: response.status, body: answer as Record<string, never> };
}

const form = (fields: Record<string, string>) => ({
  method: "POST",
  headers: { "content-type": "application/x-www-form-urlencoded" },
  body: new URLSearchParams(fields).toString(),
});

type Stats = {
  visits: number;
  totalSpent: number;
  lastVisitAt: string | null;
  cancelledByCustomer: number;
  cancelledBySalon: Record<SalonCancelCategory, number>;
  noShows: number;
};
type ListAnswer = {
  data: {
    customers: { id: string; name: string; kana: string; phone: string; stats: Stats }[];
    total: number;
    page: number;
  };
};
type DetailAnswer = {
  data: {
    customer: { id: string; notes: string };
    stats: Stats;
    merged: { id: string }[];
    suggestions: { id: string; samePhone: boolean; sameEmail: boolean; sameName: boolean }[];
    visits: { id: string; menus: string[]; stylist: string; status: string }[];
    visitTotal: number;
  };
};

const customersPath = (salon: Salon, rest = "") =>
  `/owner/salons/${salon.salon.id}/customers${rest}`;
const apiPath = (salon: Salon, rest = "") => `/api${customersPath(salon, rest)}`;

async function listOf(b: Browser, salon: Salon, query = "") {
  const answer = await api(b, apiPath(salon, query));
  expect(answer.status).toBe(200);
  return (answer.body as unknown as ListAnswer).data;
}

async function detailOf(b: Browser, salon: Salon, customerId: string) {
  const answer = await api(b, apiPath(salon, `/${customerId}`));
  expect(answer.status).toBe(200);
  return (answer.body as unknown as DetailAnswer).data;
}

const customerIdOf = async (bookingId: string) => {
  const [row] = await database.db
    .select({ customerId: bookings.customerId })
    .from(bookings)
    .where(eq(bookings.id, bookingId));
  return row?.customerId ?? "";
};

beforeAll(async () => {
  if (database.url) second = await openDatabase(database.url);
  full = await createFullApp(database, env);
  salonA = await buildSalonWithStaff(database.db);
  salonB = await buildSalonWithStaff(database.db);
  const a = await signedIn("owner");
  await database.db.insert(salonOwners).values({ salonId: salonA.salon.id, userId: a.userId });
  ownerA = a.b;
  const b = await signedIn("owner");
  await database.db.insert(salonOwners).values({ salonId: salonB.salon.id, userId: b.userId });
  ownerB = b.b;
  visitor = await signedIn("user");
  other = await signedIn("user");
}, 120_000);

afterAll(async () => {
  await second?.close();
  await full?.close();
});

describe("customer records", () => {
  it("are one per person per salon: the web confirm matches by account, the salon's entries by phone or address", async () => {
    const contact = {
      name: "山田　花子",
      kana: "やまだ はなこ",
      phone: "090-1234-5678",
      email: visitor.email,
    };
    const first = await webBooking(salonA, visitor.userId, contact);
    const again = await webBooking(salonA, visitor.userId, { ...contact, phone: "09012345678" });
    const id = await customerIdOf(first.id);
    expect(id).not.toBe("");
    expect(await customerIdOf(again.id)).toBe(id);
    const [record] = await database.db
      .select()
      .from(salonCustomers)
      .where(eq(salonCustomers.id, id));
    // Stored as the search reads it: katakana, digits, one space.
    expect(record).toMatchObject({
      userId: visitor.userId,
      name: "山田 花子",
      kana: "ヤマダ ハナコ",
      phone: "09012345678",
    });

    // A walk-in with the same phone, written otherwise, is the account holder's record…
    const walkIn = await salonEntry(salonA, {
      name: "ヤマダ",
      kana: "ヤマダ",
      phone: "０９０（１２３４）５６７８",
    });
    expect(walkIn.customerId).toBe(id);
    // …and so is a phone booking with only the address, in capitals.
    const byMail = await salonEntry(salonA, {
      name: "山田 花子",
      kana: "ヤマダ ハナコ",
      phone: "",
      email: visitor.email.toUpperCase(),
    });
    expect(byMail.customerId).toBe(id);

    // Another account with the same phone number is another person (a shared landline)…
    const shared = await webBooking(salonA, other.userId, {
      name: "山田 太郎",
      kana: "ヤマダ タロウ",
      phone: "09012345678",
      email: other.email,
    });
    const otherId = await customerIdOf(shared.id);
    expect(otherId).not.toBe(id);
    // …suggested on the karte as maybe the same person, by phone.
    const detail = await detailOf(ownerA, salonA, id);
    // The visit history has every booking of the person, with the menus booked on the web.
    expect(detail.visits.map((v) => v.id)).toEqual(
      expect.arrayContaining([first.id, again.id, walkIn.booking.id, byMail.booking.id]),
    );
    expect(detail.visits.find((v) => v.id === first.id)?.menus.length).toBe(1);
    expect(detail.suggestions).toContainEqual(
      expect.objectContaining({ id: otherId, samePhone: true, sameName: false }),
    );

    // The same visitor at salon B is salon B's own record.
    const atB = await webBooking(salonB, visitor.userId, contact);
    const idAtB = await customerIdOf(atB.id);
    expect(idAtB).not.toBe(id);
    const [recordB] = await database.db
      .select({ salonId: salonCustomers.salonId })
      .from(salonCustomers)
      .where(eq(salonCustomers.id, idAtB));
    expect(recordB?.salonId).toBe(salonB.salon.id);
  });
});

describe("the same phone under another name", () => {
  it("is its own record merged into the known one, listed on the karte, and the undo splits the bookings", async () => {
    const known = await salonEntry(salonA, {
      name: "鈴木 一子",
      kana: "スズキ イチコ",
      phone: "080-7777-1111",
    });
    // Her husband calls from the same number.
    const husband = await salonEntry(salonA, {
      name: "鈴木 二郎",
      kana: "すずき じろう",
      phone: "08077771111",
    });
    expect(husband.customerId).not.toBe(known.customerId);
    const [row] = await database.db
      .select()
      .from(salonCustomers)
      .where(eq(salonCustomers.id, husband.customerId));
    expect(row).toMatchObject({ mergedIntoId: known.customerId, kana: "スズキ ジロウ" });
    // He calls again: his record, not another one.
    const secondCall = await salonEntry(salonA, {
      name: "鈴木 二郎",
      kana: "スズキ ジロウ",
      phone: "080-7777-1111",
    });
    expect(secondCall.customerId).toBe(husband.customerId);
    // Her surname alone is still her.
    const again = await salonEntry(salonA, { name: "鈴木", kana: "スズキ", phone: "08077771111" });
    expect(again.customerId).toBe(known.customerId);

    const detail = await detailOf(ownerA, salonA, known.customerId);
    expect(detail.merged.map((m) => m.id)).toEqual([husband.customerId]);
    expect(detail.visits.map((v) => v.id)).toEqual(
      expect.arrayContaining([
        known.booking.id,
        husband.booking.id,
        secondCall.booking.id,
        again.booking.id,
      ]),
    );
    await unmergeCustomer(database.db, salonA.salon.id, {
      customerId: known.customerId,
      otherId: husband.customerId,
    });
    const split = await detailOf(ownerA, salonA, known.customerId);
    expect(split.merged).toEqual([]);
    expect(split.visits.map((v) => v.id)).not.toContain(husband.booking.id);
    const his = await detailOf(ownerA, salonA, husband.customerId);
    expect(his.visits.map((v) => v.id).sort()).toEqual(
      [husband.booking.id, secondCall.booking.id].sort(),
    );
  });
});

describe("search", () => {
  let sato = "";
  beforeAll(async () => {
    ({ customerId: sato } = await salonEntry(salonA, {
      name: "佐藤 一郎",
      kana: "サトウ イチロウ",
      phone: "03-5555-0101",
    }));
  });

  it("finds katakana kana from a hiragana query, names, and phone digits anywhere in the number", async () => {
    const ids = async (q: string) =>
      (await listOf(ownerA, salonA, `?q=${encodeURIComponent(q)}`)).customers.map((c) => c.id);
    expect(await ids("さとう")).toEqual([sato]);
    expect(await ids("ｻﾄｳ")).toEqual([sato]);
    expect(await ids("さとういちろう")).toEqual([sato]);
    expect(await ids("一郎")).toEqual([sato]);
    expect(await ids("5555")).toEqual([sato]);
    expect(await ids("03-5555")).toEqual([sato]);
    expect(await ids("０３５５５５")).toEqual([sato]);
    expect(await ids("見つからない名前")).toEqual([]);
  });

  it("pages by 30 with the total, and the page shows the count in a live region and an empty state", async () => {
    const all = await listOf(ownerA, salonA);
    expect(all.total).toBeGreaterThanOrEqual(3);
    expect(all.customers.length).toBe(Math.min(all.total, 30));
    expect(all.customers.every((c) => c.id)).toBe(true);

    const page = await ownerA.request(`${customersPath(salonA)}?q=${encodeURIComponent("さとう")}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toMatch(
      /aria-live="polite"[^>]*>[^<]*「さとう」の検索結果：(<!-- -->)?1(<!-- -->)?件/,
    );
    expect(html).toContain("佐藤 一郎");
    const none = await (
      await ownerA.request(`${customersPath(salonA)}?q=${encodeURIComponent("該当なし")}`)
    ).text();
    expect(none).toContain("に一致する顧客はいません");
    // A bad page number is the first page, not an error.
    expect((await ownerA.request(`${customersPath(salonA)}?page=abc`)).status).toBe(200);
  });
});

describe("stats, merge and undo", () => {
  it("count the bookings of every merged record, recursively, and an undo restores them", async () => {
    // Kimura: two visits, a no-show, their own cancellation and a same-day call.
    const kimura = { name: "木村 和子", kana: "キムラ カズコ", phone: "09022220001" };
    const { customerId: keeper } = await salonEntry(salonA, kimura, {
      status: "completed",
      price: 5000,
    });
    await salonEntry(salonA, kimura, { status: "completed", price: 7000 });
    await salonEntry(salonA, kimura, { status: "no_show" });
    await salonEntry(salonA, kimura, { status: "cancelled_by_user" });
    await salonEntry(salonA, kimura, {
      status: "cancelled_by_user",
      category: "customer_same_day",
    });
    // The same person, entered with another phone (a second record)…
    const { customerId: twin } = await salonEntry(
      salonA,
      { ...kimura, phone: "0311112222" },
      { status: "completed", price: 8000 },
    );
    // …and a third record of hers already merged into the second.
    const { customerId: third, booking: thirdBooking } = await salonEntry(
      salonA,
      { name: "木村 和子", kana: "キムラ カズコ", phone: "0422223333" },
      { status: "completed", price: 1000 },
    );
    await mergeCustomers(
      database.db,
      salonA.salon.id,
      { customerId: twin, otherId: third },
      new Date(),
    );
    await setStatus(thirdBooking.id, "cancelled_by_user", "no_contact");

    const before = await detailOf(ownerA, salonA, keeper);
    expect(before.stats).toMatchObject({
      visits: 2,
      totalSpent: 12_000,
      noShows: 1,
      cancelledByCustomer: 1,
      cancelledBySalon: { customer_advance: 0, customer_same_day: 1, no_contact: 0, salon: 0 },
    });
    expect(before.suggestions).toContainEqual(
      expect.objectContaining({ id: twin, sameName: true, samePhone: false }),
    );
    // The merged third record is no suggestion: only top records are.
    expect(before.suggestions.map((s) => s.id)).not.toContain(third);

    // Merge through the page, without JavaScript: a form post and a redirect.
    const merged = await ownerA.request(
      customersPath(salonA, `/${keeper}`),
      form({ intent: "merge", otherId: twin }),
    );
    expect(merged.status).toBe(302);
    expect(merged.headers.get("location")).toBe(customersPath(salonA, `/${keeper}?done=merge`));
    const after = await detailOf(ownerA, salonA, keeper);
    expect(after.stats).toMatchObject({
      visits: 3,
      totalSpent: 20_000,
      noShows: 1,
      cancelledBySalon: { customer_advance: 0, customer_same_day: 1, no_contact: 1, salon: 0 },
    });
    expect(after.merged.map((m) => m.id)).toEqual([twin]);
    expect(after.visitTotal).toBe(before.visitTotal + 2);
    expect(after.visits.every((visit) => visit.stylist === "スタイリスト1")).toBe(true);
    // The list shows the person once, with everything.
    const listed = await listOf(ownerA, salonA, `?q=${encodeURIComponent("きむら")}`);
    expect(listed.customers.map((c) => c.id)).toEqual([keeper]);
    expect(listed.customers[0]?.stats).toMatchObject({ visits: 3, totalSpent: 20_000 });
    // A phone number written only on a merged record still finds the person.
    const byOldPhone = await listOf(ownerA, salonA, "?q=0422223333");
    expect(byOldPhone.customers.map((c) => c.id)).toEqual([keeper]);
    const page = await (await ownerA.request(customersPath(salonA, `/${keeper}`))).text();
    expect(page).toContain("統合を取り消す");
    expect(page).toContain(`/owner/salons/${salonA.salon.id}/bookings/`);

    // Undo through the API: the counts are the first record's own again.
    const undone = await api(ownerA, apiPath(salonA, `/${keeper}/unmerge`), {
      method: "POST",
      json: { otherId: twin },
    });
    expect(undone.status).toBe(200);
    const restored = (undone.body as unknown as DetailAnswer).data;
    expect(restored.stats).toEqual(before.stats);
    expect(restored.merged).toEqual([]);
    // The twin keeps what was merged into it before.
    const twinDetail = await detailOf(ownerA, salonA, twin);
    expect(twinDetail.stats).toMatchObject({ visits: 1, totalSpent: 8000 });
    expect(twinDetail.merged.map((m) => m.id)).toEqual([third]);
    // Undoing twice is refused, in Japanese.
    const twice = await api(ownerA, apiPath(salonA, `/${keeper}/unmerge`), {
      method: "POST",
      json: { otherId: twin },
    });
    expect(twice.status).toBe(409);
    expect(JSON.stringify(twice.body)).toMatch(/統合されていません/);
  });

  it("refuses a merge across salons, into itself, of a merged record, and any cycle", async () => {
    const { customerId: a } = await salonEntry(salonA, {
      name: "高橋 一",
      kana: "タカハシ ハジメ",
      phone: "09033330001",
    });
    const { customerId: b } = await salonEntry(salonA, {
      name: "高橋 一",
      kana: "タカハシ ハジメ",
      phone: "09033330002",
    });
    const { customerId: atB } = await salonEntry(salonB, {
      name: "高橋 一",
      kana: "タカハシ ハジメ",
      phone: "09033330001",
    });
    // Another salon's record is not found from salon A, on the API and the page.
    const across = await api(ownerA, apiPath(salonA, `/${a}/merge`), {
      method: "POST",
      json: { otherId: atB },
    });
    expect(across.status).toBe(404);
    const acrossPage = await ownerA.request(
      customersPath(salonA, `/${a}`),
      form({ intent: "merge", otherId: atB }),
    );
    expect(acrossPage.status).toBe(404);
    const [untouched] = await database.db
      .select({ mergedIntoId: salonCustomers.mergedIntoId })
      .from(salonCustomers)
      .where(eq(salonCustomers.id, atB));
    expect(untouched?.mergedIntoId).toBeNull();

    const self = await api(ownerA, apiPath(salonA, `/${a}/merge`), {
      method: "POST",
      json: { otherId: a },
    });
    expect(self.status).toBe(422);

    expect(
      (await api(ownerA, apiPath(salonA, `/${a}/merge`), { method: "POST", json: { otherId: b } }))
        .status,
    ).toBe(200);
    // b now points at a: b absorbing a would close a cycle.
    const cycle = await api(ownerA, apiPath(salonA, `/${b}/merge`), {
      method: "POST",
      json: { otherId: a },
    });
    expect(cycle.status).toBe(409);
    expect(JSON.stringify(cycle.body)).toMatch(/統合されています/);
    // The page says so too, keeping the page.
    const cyclePage = await ownerA.request(
      customersPath(salonA, `/${b}`),
      form({ intent: "merge", otherId: a }),
    );
    expect(cyclePage.status).toBe(409);
    expect(await cyclePage.text()).toContain("すでに別の顧客に統合されています");
    const rows = await database.db
      .select({ id: salonCustomers.id, mergedIntoId: salonCustomers.mergedIntoId })
      .from(salonCustomers)
      .where(eq(salonCustomers.salonId, salonA.salon.id));
    const parent = new Map(rows.map((row) => [row.id, row.mergedIntoId]));
    expect(parent.get(a)).toBeNull();
    expect(parent.get(b)).toBe(a);
  });

  it.skipIf(transactionsTakeTurns)(
    "two opposite merges at once (A into B and B into A): one wins, the other is refused, no cycle",
    async () => {
      for (let round = 0; round < 5; round++) {
        const { customerId: a } = await salonEntry(salonA, {
          name: "競合 一",
          kana: "キョウゴウ ハジメ",
          phone: `0904444${String(round).padStart(2, "0")}01`,
        });
        const { customerId: b } = await salonEntry(salonA, {
          name: "競合 一",
          kana: "キョウゴウ ハジメ",
          phone: `0904444${String(round).padStart(2, "0")}02`,
        });
        const now = new Date();
        const results = await Promise.allSettled([
          mergeCustomers(database.db, salonA.salon.id, { customerId: a, otherId: b }, now),
          mergeCustomers(
            (second ?? database).db,
            salonA.salon.id,
            { customerId: b, otherId: a },
            now,
          ),
        ]);
        expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
        const refused = results.find((r) => r.status === "rejected");
        expect((refused as PromiseRejectedResult).reason).toMatchObject({
          status: 409,
          code: "customer_already_merged",
        });
        const rows = await database.db
          .select({ id: salonCustomers.id, mergedIntoId: salonCustomers.mergedIntoId })
          .from(salonCustomers)
          .where(and(eq(salonCustomers.salonId, salonA.salon.id)));
        const parent = new Map(rows.map((row) => [row.id, row.mergedIntoId]));
        // Exactly one points at the other; the winner is a top record.
        const aIntoB = parent.get(a) === b && parent.get(b) === null;
        const bIntoA = parent.get(b) === a && parent.get(a) === null;
        expect(aIntoB !== bIntoA, `round ${round}: ${parent.get(a)} / ${parent.get(b)}`).toBe(true);
      }
    },
  );
});

describe("notes and privacy", () => {
  const secret = "カラー剤でかぶれたことあり（要パッチテスト）";
  let customerId = "";
  let bookingId = "";

  beforeAll(async () => {
    const booking = await webBooking(salonA, visitor.userId, {
      name: "山田 花子",
      kana: "ヤマダ ハナコ",
      phone: "09012345678",
      email: visitor.email,
    });
    bookingId = booking.id;
    customerId = await customerIdOf(booking.id);
  });

  it("saves the salon's notes from the page, keeps line breaks, and refuses a save over someone else's edit", async () => {
    const saved = await ownerA.request(
      customersPath(salonA, `/${customerId}`),
      form({ intent: "notes", notes: `${secret}\r\n2行目`, seenNotes: "" }),
    );
    expect(saved.status).toBe(302);
    const detail = await detailOf(ownerA, salonA, customerId);
    expect(detail.customer.notes).toBe(`${secret}\n2行目`);
    // Someone else saved meanwhile: this editor started from the empty notes.
    const stale = await ownerA.request(
      customersPath(salonA, `/${customerId}`),
      form({ intent: "notes", notes: "上書き", seenNotes: "" }),
    );
    expect(stale.status).toBe(409);
    const html = await stale.text();
    expect(html).toContain("ほかの人がこの顧客のメモを更新しました");
    // What was typed is kept in the form.
    expect(html).toContain("上書き");
    const api409 = await api(ownerA, apiPath(salonA, `/${customerId}/notes`), {
      method: "PUT",
      json: { notes: "上書き", seenNotes: "" },
    });
    expect(api409.status).toBe(409);
    expect((await detailOf(ownerA, salonA, customerId)).customer.notes).toBe(`${secret}\n2行目`);
    const put = await api(ownerA, apiPath(salonA, `/${customerId}/notes`), {
      method: "PUT",
      json: { notes: secret },
    });
    expect(put.status).toBe(200);
  });

  it("never shows another salon's owner this salon's customers, bookings or notes", async () => {
    const pages = [customersPath(salonA), customersPath(salonA, `/${customerId}`)];
    for (const path of pages) {
      expect((await ownerB.request(path)).status, path).toBe(404);
    }
    // Salon A's customer under salon B's own URL is as unknown as a made-up id.
    const underB = await ownerB.request(customersPath(salonB, `/${customerId}`));
    expect(underB.status).toBe(404);
    expect(await underB.text()).not.toContain(secret);
    const posted = await ownerB.request(
      customersPath(salonB, `/${customerId}`),
      form({ intent: "notes", notes: "のっとり" }),
    );
    expect(posted.status).toBe(404);
    for (const path of [
      apiPath(salonA),
      apiPath(salonA, `/${customerId}`),
      apiPath(salonB, `/${customerId}`),
    ]) {
      const answer = await api(ownerB, path);
      expect(answer.status, path).toBe(404);
      expect(JSON.stringify(answer.body)).not.toContain(secret);
    }
    const put = await api(ownerB, apiPath(salonB, `/${customerId}/notes`), {
      method: "PUT",
      json: { notes: "のっとり" },
    });
    expect(put.status).toBe(404);
    // Salon B's own list has its own records only.
    const listB = await listOf(ownerB, salonB);
    expect(JSON.stringify(listB)).not.toContain(secret);
    expect(listB.customers.map((c) => c.id)).not.toContain(customerId);
    expect((await detailOf(ownerA, salonA, customerId)).customer.notes).toBe(secret);
  });

  it("never shows the customer the salon's notes: not in their history page nor in the booking API", async () => {
    const history = await visitor.b.request("/account/history");
    expect(history.status).toBe(200);
    const page = await history.text();
    expect(page).toContain(salonA.salon.name);
    expect(page).not.toContain(secret);
    for (const path of ["/api/bookings", `/api/bookings/${bookingId}`]) {
      const answer = await api(visitor.b, path);
      expect(answer.status, path).toBe(200);
      expect(JSON.stringify(answer.body)).not.toContain(secret);
    }
    // And the visitor is no owner: the salon's pages are the 404 screen for them.
    expect((await visitor.b.request(customersPath(salonA, `/${customerId}`))).status).toBe(404);
  });
});

describe("hostile input", () => {
  let customerId = "";
  beforeAll(async () => {
    ({ customerId } = await salonEntry(salonA, {
      name: "入力 試験",
      kana: "ニュウリョク シケン",
      phone: "09055550001",
    }));
  });

  it("answers 4xx with a Japanese message on the pages, keeping what was typed", async () => {
    const long = "あ".repeat(2001);
    const tooLong = await ownerA.request(
      customersPath(salonA, `/${customerId}`),
      form({ intent: "notes", notes: long }),
    );
    expect(tooLong.status).toBe(422);
    const html = await tooLong.text();
    expect(html).toContain("メモは2000文字以内で入力してください。");
    expect(html).toContain(long);
    const control = await ownerA.request(
      customersPath(salonA, `/${customerId}`),
      form({ intent: "notes", notes: "ベル\u0007" }),
    );
    expect(control.status).toBe(422);
    expect(await control.text()).toContain("使えない文字");
    const attempts: Record<string, string>[] = [
      { intent: "explode" },
      { intent: "merge", otherId: "'; drop table salon_customers; --" },
      { intent: "unmerge" },
    ];
    for (const fields of attempts) {
      const response = await ownerA.request(customersPath(salonA, `/${customerId}`), form(fields));
      expect(response.status, JSON.stringify(fields)).toBe(422);
      expect(await response.text()).toMatch(
        /(操作を選んでください|顧客を指定|形式が正しくありません)/,
      );
    }
    for (const path of [
      customersPath(salonA, "/not-a-uuid"),
      customersPath(salonA, "/00000000-0000-4000-8000-000000000000"),
    ]) {
      expect((await ownerA.request(path)).status, path).toBe(404);
    }
    // An overlong query (the field stops at 100) is cut and searched, not an error.
    const hugeQuery = await ownerA.request(`${customersPath(salonA)}?q=${"%27".repeat(500)}`);
    expect(hugeQuery.status).toBe(200);
    expect(await hugeQuery.text()).toContain("に一致する顧客はいません");
    const longName = await ownerA.request(
      `${customersPath(salonA)}?q=${encodeURIComponent(`にゅうりょく${"x".repeat(200)}`)}`,
    );
    expect(await longName.text()).toContain("に一致する顧客はいません");
    const cut = await listOf(ownerA, salonA, `?q=${encodeURIComponent("にゅうりょく")}`);
    expect(cut.customers.map((c) => c.id)).toEqual([customerId]);
  });

  it("answers 4xx with a Japanese message on the API", async () => {
    const japanese = /[ぁ-んァ-ン一-龥]/;
    const calls: [string, { method?: string; json?: unknown }, number][] = [
      [apiPath(salonA, "?page=abc"), {}, 400],
      [apiPath(salonA, "?page=0"), {}, 400],
      [apiPath(salonA, `?q=${"あ".repeat(101)}`), {}, 400],
      [apiPath(salonA, "/not-a-uuid"), {}, 400],
      [apiPath(salonA, `/${customerId}/merge`), { method: "POST", json: {} }, 400],
      [apiPath(salonA, `/${customerId}/merge`), { method: "POST", json: { otherId: 42 } }, 400],
      [apiPath(salonA, `/${customerId}/unmerge`), { method: "POST", json: { otherId: "x" } }, 400],
      [apiPath(salonA, `/${customerId}/notes`), { method: "PUT", json: { notes: 1 } }, 400],
      [
        apiPath(salonA, `/${customerId}/notes`),
        { method: "PUT", json: { notes: "い".repeat(2001) } },
        422,
      ],
      [
        apiPath(salonA, "/00000000-0000-4000-8000-000000000000/notes"),
        { method: "PUT", json: { notes: "x" } },
        404,
      ],
    ];
    for (const [path, init, status] of calls) {
      const answer = await api(ownerA, path, init);
      expect(answer.status, `${init.method ?? "GET"} ${path}`).toBe(status);
      expect(JSON.stringify(answer.body), path).toMatch(japanese);
    }
    const broken = await ownerA.request(apiPath(salonA, `/${customerId}/notes`), {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: "{notes:",
    });
    expect(broken.status).toBe(400);
  });
});
