import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as couponsRoute from "../../app/routes/owner.salons.$id.coupons";
import * as detailsRoute from "../../app/routes/owner.salons.$id.details";
import * as menusRoute from "../../app/routes/owner.salons.$id.menus";
import * as photosRoute from "../../app/routes/owner.salons.$id.photos";
import * as staffRoute from "../../app/routes/owner.salons.$id.staff";
import { getBookingForUser } from "../../server/bookings/booking.server";
import { loadFlowSelection } from "../../server/bookings/pages/booking-flow.server";
import {
  auditLog,
  bookingMenus,
  coupons,
  menus,
  salonBookingSettings,
  salonMembers,
  salonOwners,
  salonPhotos,
  salons,
  staff,
} from "../../server/db/schema";
import { setRole } from "../support/accounts";
import { buildBooking, buildSalonWithStaff, buildUser } from "../support/builders";
import { jpegWithGps, temporaryUploadsDir } from "../support/photos";
import { createRouteApp, postForm, signedInMember } from "../support/route-app";
import { withTestDatabase } from "../support/test-database";

/**
 * The salon editor's owner door (issue 29, point 3; decision 0047): the
 * admin editor's tabs at /owner/salons/{id}/details, /staff, /menus,
 * /coupons and /photos for the salon's owner and managers — the same pages,
 * saves, refusals and audit entries — with what only an administrator may
 * change refused on the server.
 */
const database = withTestDatabase();
let env: ReturnType<typeof createRouteApp>;
let uploads: Awaited<ReturnType<typeof temporaryUploadsDir>>;

const tabs = ["details", "staff", "menus", "coupons", "photos"] as const;

beforeAll(async () => {
  uploads = await temporaryUploadsDir();
  env = createRouteApp(
    database,
    [
      { path: "/owner/salons/:id/details", module: detailsRoute },
      { path: "/owner/salons/:id/staff", module: staffRoute },
      { path: "/owner/salons/:id/menus", module: menusRoute },
      { path: "/owner/salons/:id/coupons", module: couponsRoute },
      { path: "/owner/salons/:id/photos", module: photosRoute },
    ],
    { UPLOADS_DIR: uploads.dir },
  );
});
afterAll(async () => {
  await uploads?.remove();
});

type Person = Awaited<ReturnType<typeof signedInMember>>;

async function ownerOf(salonId: string): Promise<Person> {
  const member = await signedInMember(database, env, "owner");
  await setRole(database.db, member.email, "owner");
  await database.db.insert(salonOwners).values({ salonId, userId: member.userId });
  return member;
}

/** A plain account working at the salon with a staff role (decision 0045). */
async function memberOf(salonId: string, role: "manager" | "reception"): Promise<Person> {
  const member = await signedInMember(database, env, role);
  await database.db.insert(salonMembers).values({ salonId, userId: member.userId, role });
  return member;
}

async function salonWithPeople() {
  const built = await buildSalonWithStaff(database.db);
  const owner = await ownerOf(built.salon.id);
  const manager = await memberOf(built.salon.id, "manager");
  return { ...built, owner, manager };
}

type Page = {
  status: number;
  loaderData: {
    door: { kind: string; paths: Record<string, string> };
    salon: { id: string; version: number; slug: string; status: string };
    values?: {
      fields: Record<string, string>;
      features: string[];
      ownerIds: string[];
      closureRows: number;
    };
    options?: { owners: unknown[] };
  } | null;
  actionData: {
    form?: string;
    errors: Record<string, string | undefined>;
    conflict?: boolean;
    version?: number;
  } | null;
};

const read = async (person: Person, path: string) =>
  (await (await person.b.request(path)).json()) as Page;

async function versionOf(salonId: string) {
  const [row] = await database.db
    .select({ version: salons.version })
    .from(salons)
    .where(eq(salons.id, salonId));
  return String(row?.version ?? 0);
}

/** The 基本情報 form as the owner's page sends it back: no slug, no owners. */
async function detailsForm(person: Person, salonId: string, change: Record<string, string> = {}) {
  const page = await read(person, `/owner/salons/${salonId}/details`);
  const values = page.loaderData?.values;
  if (!values) throw new Error("no form values");
  const { slug: _slug, addOwnerId: _add, ...fields } = values.fields;
  return {
    intent: "save",
    version: String(page.loaderData?.salon.version),
    closureRows: String(values.closureRows),
    features: values.features,
    ...fields,
    ...change,
  };
}

const newMenu = (version: string, name: string, price = "4000") => ({
  intent: "menu-create",
  version,
  category: "カット",
  name,
  description: "",
  price,
  durationMinutes: "30",
  staffScope: "all",
});

describe("the owner door's access", () => {
  it("opens every tab for the owner and a manager, in the salon's frame with the owner door's tabs", async () => {
    const { salon, owner, manager } = await salonWithPeople();
    const base = `/owner/salons/${salon.id}`;
    for (const [name, person] of [
      ["owner", owner],
      ["manager", manager],
    ] as const) {
      for (const tab of tabs) {
        const page = await read(person, `${base}/${tab}`);
        expect(page.status, `${name} ${tab}`).toBe(200);
        expect(page.loaderData?.door.kind).toBe("owner");
        expect(page.loaderData?.door.paths).toEqual({
          details: `${base}/details`,
          staff: `${base}/staff`,
          menus: `${base}/menus`,
          coupons: `${base}/coupons`,
          photos: `${base}/photos`,
        });
      }
    }
    // The 基本情報 page does not list the site's owner accounts (nor this salon's).
    const details = await read(owner, `${base}/details`);
    expect(details.loaderData?.options?.owners).toEqual([]);
    expect(details.loaderData?.values?.ownerIds).toEqual([]);
  });

  it("shows another salon's owner and a receptionist the 404 screen on every tab, GET and POST, and changes nothing", async () => {
    const { salon } = await salonWithPeople();
    const other = await buildSalonWithStaff(database.db);
    const otherOwner = await ownerOf(other.salon.id);
    const receptionist = await memberOf(salon.id, "reception");
    const version = await versionOf(salon.id);
    for (const person of [otherOwner, receptionist]) {
      for (const tab of tabs) {
        const path = `/owner/salons/${salon.id}/${tab}`;
        expect((await person.b.request(path)).status, tab).toBe(404);
        const post = await person.b.request(path, postForm(newMenu(version, `by-${tab}`)));
        expect(post.status, `POST ${tab}`).toBe(404);
      }
    }
    const rows = await database.db.select().from(menus).where(eq(menus.salonId, salon.id));
    expect(rows.map((m) => m.name)).toEqual(["カット"]);
    expect(await versionOf(salon.id)).toBe(version);
  });
});

describe("saving through the owner door", () => {
  it("saves each tab for the owner and a manager, back to the tab, audited with who did it", async () => {
    const { salon, owner, manager, menu } = await salonWithPeople();
    const base = `/owner/salons/${salon.id}`;

    const details = await owner.b.request(
      `${base}/details`,
      postForm(await detailsForm(owner, salon.id, { description: "髪質改善が得意なサロンです。" })),
    );
    expect(details.status).toBe(302);
    expect(details.headers.get("location")).toBe(`${base}/details?done=saved`);

    const member = await manager.b.request(
      `${base}/staff`,
      postForm({
        intent: "staff-create",
        version: await versionOf(salon.id),
        name: "佐藤 次郎",
        kana: "サトウ ジロウ",
        role: "トップスタイリスト",
        profile: "",
        photoUrl: "",
        yearsOfExperience: "8",
        nominationFee: "1100",
        specialties: "",
        menuIds: [menu.id],
      }),
    );
    expect(member.status).toBe(302);
    const [added] = await database.db
      .select()
      .from(staff)
      .where(and(eq(staff.salonId, salon.id), eq(staff.name, "佐藤 次郎")));
    expect(added?.nominationFee).toBe(1100);
    expect(member.headers.get("location")).toBe(
      `${base}/staff?staff=${added?.id}&done=staff-created`,
    );

    const menuSaved = await owner.b.request(
      `${base}/menus`,
      postForm(newMenu(await versionOf(salon.id), "前髪カット", "1500")),
    );
    expect(menuSaved.status).toBe(302);
    expect(menuSaved.headers.get("location")).toBe(`${base}/menus?done=menu-created`);

    const couponSaved = await manager.b.request(
      `${base}/coupons`,
      postForm({
        intent: "coupon-create",
        version: await versionOf(salon.id),
        title: "初回500円引き",
        description: "",
        discountKind: "amount",
        discountValue: "500",
        conditions: "",
        target: "new",
        weekdays: ["0", "1", "2", "3", "4", "5", "6"],
        // Paid at the salon even when the salon asks for prepayment (decision 0075).
        prepaymentExempt: "on",
        validFrom: "2026-01-01",
        validUntil: "",
        menuIds: [],
      }),
    );
    expect(couponSaved.status).toBe(302);
    expect(couponSaved.headers.get("location")).toBe(`${base}/coupons?done=coupon-created`);

    const photo = new FormData();
    photo.set("intent", "upload");
    photo.set("version", await versionOf(salon.id));
    photo.set("alt", "店内");
    photo.set(
      "photo",
      new Blob([new Uint8Array(await jpegWithGps(600, 400))], { type: "image/jpeg" }),
      "shop.jpg",
    );
    const photoSaved = await manager.b.request(`${base}/photos`, { method: "POST", body: photo });
    expect(photoSaved.status).toBe(302);
    expect(photoSaved.headers.get("location")).toBe(`${base}/photos?done=upload`);

    const [stored] = await database.db.select().from(salons).where(eq(salons.id, salon.id));
    expect(stored?.description).toBe("髪質改善が得意なサロンです。");
    const savedCoupons = await database.db
      .select()
      .from(coupons)
      .where(eq(coupons.salonId, salon.id));
    expect(savedCoupons.map((coupon) => coupon.prepaymentExempt)).toEqual([true]);
    expect(
      await database.db.select().from(salonPhotos).where(eq(salonPhotos.salonId, salon.id)),
    ).toHaveLength(1);

    const entries = await database.db
      .select({ action: auditLog.action, actor: auditLog.actorUserId })
      .from(auditLog)
      .where(eq(auditLog.salonId, salon.id))
      .orderBy(auditLog.createdAt, auditLog.id);
    expect(entries).toEqual([
      { action: "salon.update", actor: owner.userId },
      { action: "staff.create", actor: manager.userId },
      { action: "menu.create", actor: owner.userId },
      { action: "coupon.create", actor: manager.userId },
      { action: "salon_photo.add", actor: manager.userId },
    ]);
  });

  it("refuses what only an administrator may change: status, deletion, URL name and owners", async () => {
    const { salon, owner, manager } = await salonWithPeople();
    const path = `/owner/salons/${salon.id}/details`;
    const version = await versionOf(salon.id);
    const answers: Record<string, number> = {};
    for (const intent of ["publish", "suspend", "unpublish", "delete"]) {
      const response = await manager.b.request(path, postForm({ intent, version }));
      const body = (await response.json()) as Page;
      answers[intent] = response.status;
      expect(body.actionData?.errors.form).toBe(
        "公開状態の変更、サロンの削除、URL名（スラッグ）とオーナーの変更は運営者だけが行えます。",
      );
    }
    expect(answers).toEqual({ publish: 403, suspend: 403, unpublish: 403, delete: 403 });

    const stranger = await buildUser(database.db, { role: "owner" });
    const attempts = {
      slug: { slug: "new-address" },
      addOwnerId: { addOwnerId: stranger.id },
      ownerIds: { ownerIds: [owner.userId, stranger.id] },
    };
    for (const [name, extra] of Object.entries(attempts)) {
      const form = {
        ...(await detailsForm(owner, salon.id, { name: "乗っ取りサロン" })),
        ...extra,
      };
      const response = await owner.b.request(path, postForm(form));
      expect(response.status, name).toBe(403);
    }
    const [stored] = await database.db.select().from(salons).where(eq(salons.id, salon.id));
    expect(stored).toMatchObject({ slug: salon.slug, status: salon.status, name: salon.name });
    expect(String(stored?.version)).toBe(version);
    const owners = await database.db
      .select({ userId: salonOwners.userId })
      .from(salonOwners)
      .where(eq(salonOwners.salonId, salon.id));
    expect(owners).toEqual([{ userId: owner.userId }]);

    // A save without those fields keeps the stored slug and owners; the booking
    // rules are the 設定 page's (decision 0048) and stay as stored too.
    const saved = await owner.b.request(
      path,
      postForm(
        await detailsForm(owner, salon.id, { name: "新しいサロン名", bufferAfterMinutes: "45" }),
      ),
    );
    expect(saved.status).toBe(302);
    const [after] = await database.db.select().from(salons).where(eq(salons.id, salon.id));
    expect(after).toMatchObject({ slug: salon.slug, status: salon.status, name: "新しいサロン名" });
    expect(
      await database.db
        .select()
        .from(salonBookingSettings)
        .where(eq(salonBookingSettings.salonId, salon.id)),
    ).toEqual([]);
    expect(
      await database.db
        .select({ userId: salonOwners.userId })
        .from(salonOwners)
        .where(eq(salonOwners.salonId, salon.id)),
    ).toEqual([{ userId: owner.userId }]);
  });

  it("refuses the second of two saves from the same version, keeping that version and what was typed", async () => {
    const { salon, owner, manager } = await salonWithPeople();
    const path = `/owner/salons/${salon.id}/menus`;
    const version = await versionOf(salon.id);
    expect((await owner.b.request(path, postForm(newMenu(version, "オーナーの追加")))).status).toBe(
      302,
    );
    const late = await manager.b.request(path, postForm(newMenu(version, "店長の追加")));
    expect(late.status).toBe(409);
    const body = (await late.json()) as Page & {
      actionData: { values: Record<string, string> };
    };
    expect(body.actionData).toMatchObject({
      form: "menu",
      conflict: true,
      version: Number(version),
    });
    expect(body.actionData.values.name).toBe("店長の追加");
    expect(body.actionData.errors.form).toContain("最新の内容を確認してから保存してください");

    const details = await manager.b.request(
      `/owner/salons/${salon.id}/details`,
      postForm({ ...(await detailsForm(manager, salon.id)), version }),
    );
    expect(details.status).toBe(409);
    expect(((await details.json()) as Page).actionData).toMatchObject({ conflict: true });
  });
});

describe("what an owner's edit keeps true", () => {
  it("keeps a retired menu on a past booking with its old name and price, and off the booking flow", async () => {
    const { salon, owner, stylists, menu } = await salonWithPeople();
    const [stylist] = stylists;
    if (!stylist) throw new Error("no stylist");
    const visitor = await buildUser(database.db);
    const startsAt = new Date(Date.now() - 7 * 86_400_000);
    const booking = await buildBooking(database.db, {
      salonId: salon.id,
      staffId: stylist.id,
      userId: visitor.id,
      startsAt,
      endsAt: new Date(startsAt.getTime() + 3_600_000),
      status: "completed",
      totalPrice: 5500,
    });
    await database.db.insert(bookingMenus).values({
      salonId: salon.id,
      bookingId: booking.id,
      position: 0,
      menuId: menu.id,
      name: menu.name,
      price: menu.price,
      durationMinutes: menu.durationMinutes,
    });
    const path = `/owner/salons/${salon.id}/menus`;
    const renamed = await owner.b.request(
      path,
      postForm({
        ...newMenu(await versionOf(salon.id), "プレミアムカット", "8800"),
        intent: "menu-update",
        menuId: menu.id,
        durationMinutes: "60",
      }),
    );
    expect(renamed.status).toBe(302);
    const retired = await owner.b.request(
      path,
      postForm({ intent: "menu-retire", version: await versionOf(salon.id), menuId: menu.id }),
    );
    expect(retired.status).toBe(302);
    expect(retired.headers.get("location")).toBe(`${path}?done=menu-retired`);
    // Deleting it is refused while a booking names it.
    const deleted = await owner.b.request(
      path,
      postForm({ intent: "menu-delete", version: await versionOf(salon.id), menuId: menu.id }),
    );
    expect(deleted.status).toBe(409);

    const [stored] = await database.db.select().from(menus).where(eq(menus.id, menu.id));
    expect(stored).toMatchObject({ name: "プレミアムカット", price: 8800, published: false });
    const past = await getBookingForUser(database.db, {
      bookingId: booking.id,
      userId: visitor.id,
    });
    expect(past.menus).toEqual([
      { menuId: menu.id, name: "カット", price: 5500, durationMinutes: 60 },
    ]);
    expect(past.totalPrice).toBe(5500);
    const flow = await loadFlowSelection(
      database.db,
      { id: salon.id, slug: salon.slug, name: salon.name, timeZone: salon.timeZone },
      { menuIds: [], staffSlug: null, couponId: null },
      new Date(),
    );
    expect(flow.menuGroups.flatMap((group) => group.menus.map((m) => m.id))).not.toContain(menu.id);
  });

  it("keeps search's derived data true after each owner edit", async () => {
    const { salon, owner } = await salonWithPeople();
    const derived = async () => {
      const [row] = await database.db
        .select({ priceMin: salons.priceMin, priceMax: salons.priceMax, text: salons.searchText })
        .from(salons)
        .where(eq(salons.id, salon.id));
      return row;
    };
    expect(await derived()).toMatchObject({ priceMin: 5500, priceMax: 5500 });
    const base = `/owner/salons/${salon.id}`;
    await owner.b.request(
      `${base}/menus`,
      postForm(newMenu(await versionOf(salon.id), "前髪カット", "1500")),
    );
    expect(await derived()).toMatchObject({ priceMin: 1500, priceMax: 5500 });

    const [cheap] = await database.db
      .select()
      .from(menus)
      .where(and(eq(menus.salonId, salon.id), eq(menus.name, "前髪カット")));
    await owner.b.request(
      `${base}/menus`,
      postForm({
        intent: "menu-retire",
        version: await versionOf(salon.id),
        menuId: cheap?.id ?? "",
      }),
    );
    expect(await derived()).toMatchObject({ priceMin: 5500, priceMax: 5500 });

    // The search text is normalized (katakana as hiragana: decision 0015).
    expect((await derived())?.text).not.toContain("へっどすぱ専門");
    await owner.b.request(
      `${base}/details`,
      postForm(await detailsForm(owner, salon.id, { catchCopy: "ヘッドスパ専門の隠れ家" })),
    );
    expect((await derived())?.text).toContain("へっどすぱ専門");
  });
});
