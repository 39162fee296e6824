import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { auditLog, salonPhotos, salons } from "../../server/db/schema";
import { createLogger } from "../../server/logger";
import type { PhotoStore } from "../../server/photos/photo-store.server";
import { photoTagChoices } from "../../server/salon-editor/salon-photos.server";
import { submitSalonPhotoForm } from "../../server/salon-editor/salon-photos-form.server";
import { buildMenu, buildSalon, buildStaff, buildUser } from "../support/builders";
import { withTestDatabase } from "../support/test-database";

/**
 * スタイル (issue 31, decision 0057): the salon editor's 写真 tab names a
 * photo's stylist and menu, only the salon's own, checked on the server.
 */
const database = withTestDatabase();
const db = () => database.db;
const NOW = new Date("2026-11-26T03:00:00Z");
// Tagging touches no file.
const noStore = {} as PhotoStore;

let admin: { id: string };
let salon: { id: string; name: string };
let photoId = "";
let stylistId = "";
let menuId = "";
let otherStylistId = "";
let otherMenuId = "";

beforeAll(async () => {
  admin = await buildUser(db(), { role: "admin" });
  salon = await buildSalon(db(), { slug: "tag-salon" });
  const other = await buildSalon(db(), { slug: "tag-other" });
  stylistId = (await buildStaff(db(), salon.id, { name: "西 ひかり" })).id;
  menuId = (await buildMenu(db(), salon.id, { name: "ボブカット" })).id;
  otherStylistId = (await buildStaff(db(), other.id)).id;
  otherMenuId = (await buildMenu(db(), other.id)).id;
  const [photo] = await db()
    .insert(salonPhotos)
    .values({
      salonId: salon.id,
      url: "/images/salons/hair-1.svg",
      alt: "ボブ",
      width: 8,
      height: 6,
    })
    .returning({ id: salonPhotos.id });
  photoId = photo?.id ?? "";
});

async function post(fields: Record<string, string>) {
  const [row] = await db()
    .select({ version: salons.version })
    .from(salons)
    .where(eq(salons.id, salon.id));
  const form = new FormData();
  form.set("intent", "tag");
  form.set("version", String(row?.version ?? 0));
  form.set("photoId", photoId);
  for (const [key, value] of Object.entries(fields)) form.set(key, value);
  return submitSalonPhotoForm(
    { db: db(), photos: noStore, log: createLogger("silent") },
    salon,
    form,
    admin,
    NOW,
  );
}

async function tags() {
  const [row] = await db()
    .select({ staffId: salonPhotos.staffId, menuId: salonPhotos.menuId })
    .from(salonPhotos)
    .where(eq(salonPhotos.id, photoId));
  return row;
}

describe("a photo's stylist and menu", () => {
  it("offers the salon's own stylists and menus only", async () => {
    const choices = await photoTagChoices(db(), salon.id);
    expect(choices.stylists.map((s) => s.id)).toEqual([stylistId]);
    expect(choices.menus.map((m) => m.id)).toEqual([menuId]);
  });

  it("saves them with an audit entry, and clears them with 指定なし", async () => {
    expect(await post({ staffId: stylistId, menuId })).toEqual({ kind: "done", intent: "tag" });
    expect(await tags()).toEqual({ staffId: stylistId, menuId });
    const audits = await db()
      .select({ after: auditLog.after })
      .from(auditLog)
      .where(and(eq(auditLog.targetId, photoId), eq(auditLog.action, "salon_photo.update")));
    expect(audits.map((a) => a.after)).toContainEqual({ staffId: stylistId, menuId });
    expect(await post({ staffId: "", menuId: "" })).toEqual({ kind: "done", intent: "tag" });
    expect(await tags()).toEqual({ staffId: null, menuId: null });
  });

  it("refuses another salon's stylist or menu, and a malformed id, leaving the photo as it was", async () => {
    await post({ staffId: stylistId, menuId: "" });
    const stylist = await post({ staffId: otherStylistId, menuId: "" });
    expect(stylist).toMatchObject({ kind: "form", status: 400 });
    expect(JSON.stringify(stylist)).toContain("このサロンのスタイリストを選んでください。");
    const menu = await post({ staffId: "", menuId: otherMenuId });
    expect(menu).toMatchObject({ kind: "form", status: 400 });
    expect(JSON.stringify(menu)).toContain("このサロンのメニューを選んでください。");
    expect(await post({ staffId: "not-a-uuid" })).toMatchObject({ kind: "form", status: 400 });
    expect(await tags()).toEqual({ staffId: stylistId, menuId: null });
  });
});
