import { createHash, randomUUID } from "node:crypto";
import { and, asc, eq, sql } from "drizzle-orm";
import type { PhotoVariant } from "../../common/photo-variants";
import { recordAudit } from "../audit/audit";
import type { Database } from "../db/client";
import { menus, salonPhotos, staff } from "../db/schema";
import { BadRequestError, NotFoundError } from "../errors/domain-error";
import { describeError, type Logger } from "../logger";
import { PhotoRejectedError, processPhoto } from "../photos/photo-image.server";
import { type PhotoStore, uploadKey, uploadUrl } from "../photos/photo-store.server";
import { bumpSalonVersion } from "./salon-editor.server";
import type { SalonPhotoAction } from "./salon-photos.schema";

type Actor = { id: string };
type Salon = { id: string; name: string };
/**
 * Every change names the salon version its page was loaded with: a photo
 * change is an edit of the salon like any other tab's (issue 16, point 7).
 */
type Edit = { salonId: string; version: number };

const PHOTO_MISSING = "この写真は見つかりませんでした。すでに削除された可能性があります。";

/** The photos of a salon in page order; the first is the cover. */
export function listSalonPhotos(db: Database, salonId: string) {
  return db
    .select({
      id: salonPhotos.id,
      url: salonPhotos.url,
      alt: salonPhotos.alt,
      width: salonPhotos.width,
      height: salonPhotos.height,
      variants: salonPhotos.variants,
      sortOrder: salonPhotos.sortOrder,
      staffId: salonPhotos.staffId,
      menuId: salonPhotos.menuId,
    })
    .from(salonPhotos)
    .where(eq(salonPhotos.salonId, salonId))
    .orderBy(asc(salonPhotos.sortOrder), asc(salonPhotos.id));
}

/** The store keys of a photo's files (its variants, or its one file when it has none). */
function keysOf(photo: { url: string; variants: PhotoVariant[] }) {
  const urls = photo.variants.length > 0 ? photo.variants.map((v) => v.url) : [photo.url];
  return urls.map(uploadKey).filter((key): key is string => key !== null);
}

/**
 * Adds an upload as the salon's last photo: checked and converted by
 * processPhoto (which throws PhotoRejectedError with the Japanese reason),
 * its WebP sizes stored under content-hashed keys, then the row and its
 * audit entry in one transaction. Files whose row did not commit are removed.
 */
export async function addSalonPhoto(
  db: Database,
  store: PhotoStore,
  input: { salon: Salon; version: number; bytes: Uint8Array; alt: string },
  actor: Actor,
  now: Date,
) {
  const files = await processPhoto(input.bytes);
  const photoId = randomUUID();
  const variants: (PhotoVariant & { key: string })[] = files.map((file) => {
    const hash = createHash("sha256").update(file.data).digest("hex").slice(0, 16);
    const key = `salons/${input.salon.id}/${photoId}-${hash}-${file.width}.webp`;
    return { key, url: uploadUrl(key), width: file.width, height: file.height };
  });
  const largest = variants[variants.length - 1];
  if (!largest) throw new Error("no variant written");
  const alt = input.alt || `${input.salon.name}の写真`;
  try {
    await Promise.all(
      files.map((file, i) => store.put(variants[i]?.key ?? "", file.data, "image/webp")),
    );
    return await db.transaction(async (tx) => {
      await bumpSalonVersion(tx, input.salon.id, input.version);
      const [{ next } = { next: 0 }] = await tx
        .select({ next: sql<number>`coalesce(max(${salonPhotos.sortOrder}) + 1, 0)::int` })
        .from(salonPhotos)
        .where(eq(salonPhotos.salonId, input.salon.id));
      const [photo] = await tx
        .insert(salonPhotos)
        .values({
          id: photoId,
          salonId: input.salon.id,
          url: largest.url,
          alt,
          width: largest.width,
          height: largest.height,
          variants: variants.map(({ url, width, height }) => ({ url, width, height })),
          sortOrder: next,
        })
        .returning();
      await recordAudit(
        tx,
        {
          actorUserId: actor.id,
          action: "salon_photo.add",
          targetType: "photo",
          targetId: photoId,
          salonId: input.salon.id,
          after: { alt, url: largest.url, sortOrder: next },
        },
        now,
      );
      return photo;
    });
  } catch (error) {
    await store.delete(variants.map((v) => v.key)).catch(() => {});
    throw error;
  }
}

/** Locks and returns the salon's photos in order, so concurrent moves do not interleave. */
async function lockedPhotos(tx: Database, salonId: string) {
  return tx
    .select({ id: salonPhotos.id, sortOrder: salonPhotos.sortOrder })
    .from(salonPhotos)
    .where(eq(salonPhotos.salonId, salonId))
    .orderBy(asc(salonPhotos.sortOrder), asc(salonPhotos.id))
    .for("update");
}

/** Writes 0…n-1 in the given order (only rows whose position changed). */
async function renumber(tx: Database, rows: { id: string; sortOrder: number }[]) {
  for (const [index, row] of rows.entries()) {
    if (row.sortOrder !== index) {
      await tx.update(salonPhotos).set({ sortOrder: index }).where(eq(salonPhotos.id, row.id));
    }
  }
}

/** One step up or down; the first photo is the cover. Moving past an end changes nothing. */
export async function moveSalonPhoto(
  db: Database,
  input: Edit & { photoId: string; direction: "up" | "down" },
  actor: Actor,
  now: Date,
) {
  await db.transaction(async (tx) => {
    await bumpSalonVersion(tx, input.salonId, input.version);
    const rows = await lockedPhotos(tx, input.salonId);
    const from = rows.findIndex((row) => row.id === input.photoId);
    if (from < 0) throw new NotFoundError(PHOTO_MISSING);
    const to = input.direction === "up" ? from - 1 : from + 1;
    if (to < 0 || to >= rows.length) return;
    const order = rows.map((row) => row.id);
    const moved = [...rows];
    [moved[from], moved[to]] = [
      moved[to] as (typeof rows)[number],
      moved[from] as (typeof rows)[number],
    ];
    await renumber(tx, moved);
    await recordAudit(
      tx,
      {
        actorUserId: actor.id,
        action: "salon_photo.reorder",
        targetType: "photo",
        targetId: input.photoId,
        salonId: input.salonId,
        before: { order },
        after: { order: moved.map((row) => row.id) },
      },
      now,
    );
  });
}

/** Changes the text read out for the photo. */
export async function updateSalonPhotoAlt(
  db: Database,
  input: Edit & { photoId: string; alt: string },
  actor: Actor,
  now: Date,
) {
  await db.transaction(async (tx) => {
    await bumpSalonVersion(tx, input.salonId, input.version);
    const [before] = await tx
      .select({ alt: salonPhotos.alt })
      .from(salonPhotos)
      .where(and(eq(salonPhotos.id, input.photoId), eq(salonPhotos.salonId, input.salonId)))
      .for("update");
    if (!before) throw new NotFoundError(PHOTO_MISSING);
    if (before.alt === input.alt) return;
    await tx.update(salonPhotos).set({ alt: input.alt }).where(eq(salonPhotos.id, input.photoId));
    await recordAudit(
      tx,
      {
        actorUserId: actor.id,
        action: "salon_photo.update",
        targetType: "photo",
        targetId: input.photoId,
        salonId: input.salonId,
        before: { alt: before.alt },
        after: { alt: input.alt },
      },
      now,
    );
  });
}

/**
 * The stylists and menus a photo can be tagged with: the salon's own (its
 * active stylists, every menu, published or not — the public page shows a
 * tag only while the menu is published).
 */
export async function photoTagChoices(db: Database, salonId: string) {
  const [stylists, salonMenus] = await Promise.all([
    db
      .select({ id: staff.id, name: staff.name })
      .from(staff)
      .where(and(eq(staff.salonId, salonId), eq(staff.active, true)))
      .orderBy(asc(staff.sortOrder), asc(staff.slug)),
    db
      .select({ id: menus.id, name: menus.name, category: menus.category })
      .from(menus)
      .where(eq(menus.salonId, salonId))
      .orderBy(asc(menus.sortOrder), asc(menus.name)),
  ]);
  return { stylists, menus: salonMenus };
}

/**
 * スタイル (issue 31): the stylist who did the style shown and its menu, or
 * neither. Only this salon's: another salon's id is refused (the form only
 * offers the salon's own; a crafted post is not trusted).
 */
export async function tagSalonPhoto(
  db: Database,
  input: Edit & { photoId: string; staffId: string | null; menuId: string | null },
  actor: Actor,
  now: Date,
) {
  await db.transaction(async (tx) => {
    await bumpSalonVersion(tx, input.salonId, input.version);
    const [before] = await tx
      .select({ staffId: salonPhotos.staffId, menuId: salonPhotos.menuId })
      .from(salonPhotos)
      .where(and(eq(salonPhotos.id, input.photoId), eq(salonPhotos.salonId, input.salonId)))
      .for("update");
    if (!before) throw new NotFoundError(PHOTO_MISSING);
    if (input.staffId) {
      const [own] = await tx
        .select({ id: staff.id })
        .from(staff)
        .where(and(eq(staff.id, input.staffId), eq(staff.salonId, input.salonId)));
      if (!own)
        throw new BadRequestError("invalid_staff", "このサロンのスタイリストを選んでください。");
    }
    if (input.menuId) {
      const [own] = await tx
        .select({ id: menus.id })
        .from(menus)
        .where(and(eq(menus.id, input.menuId), eq(menus.salonId, input.salonId)));
      if (!own) throw new BadRequestError("invalid_menu", "このサロンのメニューを選んでください。");
    }
    if (before.staffId === input.staffId && before.menuId === input.menuId) return;
    await tx
      .update(salonPhotos)
      .set({ staffId: input.staffId, menuId: input.menuId })
      .where(eq(salonPhotos.id, input.photoId));
    await recordAudit(
      tx,
      {
        actorUserId: actor.id,
        action: "salon_photo.update",
        targetType: "photo",
        targetId: input.photoId,
        salonId: input.salonId,
        before,
        after: { staffId: input.staffId, menuId: input.menuId },
      },
      now,
    );
  });
}

/**
 * Deletes the row (the next photo becomes the cover when it was first),
 * then its files once the deletion has committed. A file that cannot be
 * removed is logged, not shown: the page no longer links it.
 */
export async function deleteSalonPhoto(
  db: Database,
  store: PhotoStore,
  input: Edit & { photoId: string },
  actor: Actor,
  now: Date,
  log?: Logger,
) {
  const removed = await db.transaction(async (tx) => {
    await bumpSalonVersion(tx, input.salonId, input.version);
    const rows = await lockedPhotos(tx, input.salonId);
    const [photo] = await tx
      .delete(salonPhotos)
      .where(and(eq(salonPhotos.id, input.photoId), eq(salonPhotos.salonId, input.salonId)))
      .returning();
    if (!photo) throw new NotFoundError(PHOTO_MISSING);
    await renumber(
      tx,
      rows.filter((row) => row.id !== photo.id),
    );
    await recordAudit(
      tx,
      {
        actorUserId: actor.id,
        action: "salon_photo.delete",
        targetType: "photo",
        targetId: photo.id,
        salonId: input.salonId,
        before: { alt: photo.alt, url: photo.url, sortOrder: photo.sortOrder },
      },
      now,
    );
    return photo;
  });
  try {
    await store.delete(keysOf(removed));
  } catch (error) {
    log?.warn("photo files not removed", { photoId: removed.id, ...describeError(error) });
  }
}

/** One form of the photos tab, already parsed (salon-photos.schema.ts). */
export async function applySalonPhotoAction(
  db: Database,
  store: PhotoStore,
  salon: Salon,
  action: SalonPhotoAction,
  file: Uint8Array | null,
  actor: Actor,
  now: Date,
  log?: Logger,
) {
  const edit = { salonId: salon.id, version: action.version };
  switch (action.intent) {
    case "upload":
      if (!file || file.length === 0) throw new PhotoRejectedError(NO_FILE);
      await addSalonPhoto(
        db,
        store,
        { salon, version: action.version, bytes: file, alt: action.alt },
        actor,
        now,
      );
      return;
    case "move":
      await moveSalonPhoto(
        db,
        { ...edit, photoId: action.photoId, direction: action.direction },
        actor,
        now,
      );
      return;
    case "alt":
      await updateSalonPhotoAlt(
        db,
        { ...edit, photoId: action.photoId, alt: action.alt },
        actor,
        now,
      );
      return;
    case "delete":
      await deleteSalonPhoto(db, store, { ...edit, photoId: action.photoId }, actor, now, log);
      return;
    case "tag":
      await tagSalonPhoto(
        db,
        { ...edit, photoId: action.photoId, staffId: action.staffId, menuId: action.menuId },
        actor,
        now,
      );
      return;
  }
}
const NO_FILE = "アップロードする写真のファイルを選んでください。";
