import { and, asc, eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as photosRoute from "../../app/routes/admin.salons.edit.$id.photos";
import { auditLog, salonPhotos, salons } from "../../server/db/schema";
import { DomainError } from "../../server/errors/domain-error";
import { MAX_PHOTO_BYTES } from "../../server/photos/photo-image.server";
import {
  createLocalPhotoStore,
  createS3PhotoStore,
  type PhotoStore,
  uploadKey,
} from "../../server/photos/photo-store.server";
import { SalonVersionConflictError } from "../../server/salon-editor/salon-editor.server";
import {
  addSalonPhoto,
  deleteSalonPhoto,
  listSalonPhotos,
  moveSalonPhoto,
  updateSalonPhotoAlt,
} from "../../server/salon-editor/salon-photos.server";
import { selectSalonCards } from "../../server/salons/salon-card";
import { setRole } from "../support/accounts";
import { buildSalon, buildUser } from "../support/builders";
import {
  hasGpsTag,
  jpegWithGps,
  pngImage,
  startS3Server,
  temporaryUploadsDir,
} from "../support/photos";
import { createRouteApp, signedInMember } from "../support/route-app";
import { withTestDatabase } from "../support/test-database";

// Photos of the salon editor (issue 16, point 6) on both stores: the upload
// checked by content, EXIF gone, WebP sizes stored, order and deletion, and
// the audit entry written with each change.
const database = withTestDatabase();
const NOW = new Date("2026-11-23T03:00:00Z");

let s3: Awaited<ReturnType<typeof startS3Server>>;
let uploads: Awaited<ReturnType<typeof temporaryUploadsDir>>;
let admin: { id: string };
beforeAll(async () => {
  s3 = await startS3Server();
  uploads = await temporaryUploadsDir();
  admin = await buildUser(database.db, { role: "admin" });
});
afterAll(async () => {
  await s3?.close();
  await uploads?.remove();
});

async function versionOf(salonId: string) {
  const [row] = await database.db
    .select({ version: salons.version })
    .from(salons)
    .where(eq(salons.id, salonId));
  return row?.version ?? -1;
}

const stores: [string, () => PhotoStore][] = [
  ["local folder", () => createLocalPhotoStore(uploads.dir)],
  ["S3-compatible bucket", () => createS3PhotoStore(s3.settings)],
];

describe.each(stores)("photos in the %s", (_name, makeStore) => {
  it("stores a phone's JPEG as WebP sizes without its EXIF (GPS included), with an audit entry", async () => {
    const store = makeStore();
    const salon = await buildSalon(database.db, { name: "サロン 写真テスト" });
    const jpeg = await jpegWithGps(2000, 1500);
    expect(hasGpsTag((await sharp(jpeg).metadata()).exif)).toBe(true);

    const photo = await addSalonPhoto(
      database.db,
      store,
      { salon, version: await versionOf(salon.id), bytes: jpeg, alt: "" },
      admin,
      NOW,
    );
    expect(photo?.alt).toBe("サロン 写真テストの写真");
    expect(photo?.variants.map((v) => [v.width, v.height])).toEqual([
      [400, 300],
      [800, 600],
      [1200, 900],
      [1600, 1200],
    ]);
    expect(photo?.url).toBe(photo?.variants.at(-1)?.url);
    expect([photo?.width, photo?.height]).toEqual([1600, 1200]);
    for (const variant of photo?.variants ?? []) {
      expect(variant.url).toMatch(
        /^\/uploads\/salons\/[0-9a-f-]+\/[0-9a-f-]+-[0-9a-f]{16}-\d+\.webp$/,
      );
      const stored = await store.get(uploadKey(variant.url) ?? "");
      expect(stored?.contentType).toBe("image/webp");
      const metadata = await sharp(stored?.body).metadata();
      expect(metadata.format).toBe("webp");
      expect(metadata.width).toBe(variant.width);
      expect(metadata.exif).toBeUndefined();
      expect(hasGpsTag(metadata.exif)).toBe(false);
    }
    // The cards of search and listings offer the cover's sizes.
    const [card] = await selectSalonCards(database.db, eq(salons.id, salon.id));
    expect(card?.photoUrl).toBe(photo?.url);
    expect(card?.photoVariants).toEqual(photo?.variants);
    const [entry] = await database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "salon_photo.add"), eq(auditLog.salonId, salon.id)));
    expect(entry).toMatchObject({
      actorUserId: admin.id,
      targetType: "photo",
      targetId: photo?.id,
    });
  });

  it("refuses what is not a JPEG, PNG, WebP or HEIC by its content, whatever its name, and stores nothing", async () => {
    const store = makeStore();
    const salon = await buildSalon(database.db);
    const png = await pngImage();
    const attempts: [string, Uint8Array, number][] = [
      ["text named .jpg", new TextEncoder().encode("これは写真ではありません。".repeat(20)), 415],
      ["GIF", Buffer.from("GIF89a\x01\x00\x01\x00\x00\x00\x00;".padEnd(40, "\0"), "latin1"), 415],
      [
        "PNG header, garbage after",
        Buffer.concat([png.subarray(0, 16), Buffer.alloc(200, 7)]),
        422,
      ],
      ["over 10 MB", Buffer.concat([png, Buffer.alloc(MAX_PHOTO_BYTES)]), 413],
      // An iPhone HEIC's box header with nothing sharp can decode behind it.
      [
        "HEIC sharp cannot read",
        Buffer.concat([
          Buffer.from("\0\0\0\x18ftypheic\0\0\0\0mif1heic", "latin1"),
          Buffer.alloc(64, 3),
        ]),
        422,
      ],
    ];
    for (const [label, bytes, status] of attempts) {
      const refused = await addSalonPhoto(
        database.db,
        store,
        { salon, version: await versionOf(salon.id), bytes, alt: "" },
        admin,
        NOW,
      ).catch((error: unknown) => error);
      expect(refused, label).toBeInstanceOf(DomainError);
      expect((refused as DomainError).status, label).toBe(status);
      expect((refused as DomainError).message, label).toMatch(/[ぁ-んァ-ン]/);
      if (label.startsWith("HEIC")) expect((refused as DomainError).message).toContain("HEIC");
    }
    expect(await listSalonPhotos(database.db, salon.id)).toEqual([]);
  });

  it("moves photos up and down (the first is the cover), edits alt text and deletes with the files", async () => {
    const store = makeStore();
    const salon = await buildSalon(database.db);
    const ids: string[] = [];
    for (const width of [500, 600, 700]) {
      const photo = await addSalonPhoto(
        database.db,
        store,
        {
          salon,
          version: await versionOf(salon.id),
          bytes: await pngImage(width, 300),
          alt: `写真${width}`,
        },
        admin,
        NOW,
      );
      ids.push(photo?.id ?? "");
    }
    const order = async () => (await listSalonPhotos(database.db, salon.id)).map((p) => p.alt);
    expect(await order()).toEqual(["写真500", "写真600", "写真700"]);
    const edit = async () => ({ salonId: salon.id, version: await versionOf(salon.id) });

    await moveSalonPhoto(
      database.db,
      { ...(await edit()), photoId: ids[2] ?? "", direction: "up" },
      admin,
      NOW,
    );
    await moveSalonPhoto(
      database.db,
      { ...(await edit()), photoId: ids[2] ?? "", direction: "up" },
      admin,
      NOW,
    );
    expect(await order()).toEqual(["写真700", "写真500", "写真600"]);
    // Past the end: nothing moves.
    await moveSalonPhoto(
      database.db,
      { ...(await edit()), photoId: ids[2] ?? "", direction: "up" },
      admin,
      NOW,
    );
    expect(await order()).toEqual(["写真700", "写真500", "写真600"]);

    await updateSalonPhotoAlt(
      database.db,
      { ...(await edit()), photoId: ids[0] ?? "", alt: "明るい店内" },
      admin,
      NOW,
    );
    const cover = (await listSalonPhotos(database.db, salon.id))[0];
    await deleteSalonPhoto(
      database.db,
      store,
      { ...(await edit()), photoId: cover?.id ?? "" },
      admin,
      NOW,
    );
    const left = await listSalonPhotos(database.db, salon.id);
    expect(left.map((p) => [p.alt, p.sortOrder])).toEqual([
      ["明るい店内", 0],
      ["写真600", 1],
    ]);
    for (const variant of cover?.variants ?? []) {
      expect(await store.get(uploadKey(variant.url) ?? "")).toBeNull();
    }
    const actions = await database.db
      .select({ action: auditLog.action, before: auditLog.before, after: auditLog.after })
      .from(auditLog)
      .where(eq(auditLog.salonId, salon.id))
      .orderBy(asc(auditLog.createdAt), asc(auditLog.id));
    // One clock for every change here, so the entries are compared as a set.
    expect(
      actions
        .map((a) => a.action)
        .filter((a) => a !== "salon_photo.add")
        .sort(),
    ).toEqual([
      "salon_photo.delete",
      "salon_photo.reorder",
      "salon_photo.reorder",
      "salon_photo.update",
    ]);
    expect(actions.find((a) => a.action === "salon_photo.update")).toMatchObject({
      before: { alt: "写真500" },
      after: { alt: "明るい店内" },
    });
  });

  it("refuses a change made from a page loaded before another admin's save", async () => {
    const store = makeStore();
    const salon = await buildSalon(database.db);
    const stale = await versionOf(salon.id);
    await addSalonPhoto(
      database.db,
      store,
      { salon, version: stale, bytes: await pngImage(), alt: "" },
      admin,
      NOW,
    );
    const refused = await addSalonPhoto(
      database.db,
      store,
      { salon, version: stale, bytes: await pngImage(), alt: "" },
      admin,
      NOW,
    ).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(SalonVersionConflictError);
    expect(
      await database.db.select().from(salonPhotos).where(eq(salonPhotos.salonId, salon.id)),
    ).toHaveLength(1);
  });
});

describe.each([
  ["local folder", () => ({ UPLOADS_DIR: uploads.dir })],
  ["S3-compatible bucket", () => s3.env],
])("the photos page with the %s", (_name, env) => {
  async function adminSite() {
    const site = createRouteApp(
      database,
      [{ path: "/admin/salons/edit/:id/photos", module: photosRoute }],
      env(),
    );
    const member = await signedInMember(database, site, "photo-admin");
    await setRole(database.db, member.email, "admin");
    return { ...site, b: member.b };
  }
  const upload = (version: number, file: Blob, name: string) => {
    const form = new FormData();
    form.set("intent", "upload");
    form.set("version", String(version));
    form.set("alt", "受付カウンター");
    form.set("photo", file, name);
    return { method: "POST", body: form };
  };

  it("uploads through a multipart form and serves the sizes at /uploads with a year's cache", async () => {
    const { app, b } = await adminSite();
    const salon = await buildSalon(database.db);
    const page = `/admin/salons/edit/${salon.id}/photos`;
    const jpeg = new Blob([new Uint8Array(await jpegWithGps(900, 600))], { type: "image/jpeg" });
    const response = await b.request(page, upload(await versionOf(salon.id), jpeg, "IMG_0001.JPG"));
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${page}?done=upload`);
    const [photo] = await listSalonPhotos(database.db, salon.id);
    expect(photo?.alt).toBe("受付カウンター");
    expect(photo?.variants.map((v) => v.width)).toEqual([400, 800, 900]);
    const image = await app.request(`http://localhost:3000${photo?.url}`);
    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toBe("image/webp");
    expect(image.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect((await sharp(Buffer.from(await image.arrayBuffer())).metadata()).exif).toBeUndefined();
    expect((await app.request("http://localhost:3000/uploads/../../etc/passwd")).status).toBe(404);
    expect((await app.request("http://localhost:3000/uploads/salons/x/none.webp")).status).toBe(
      404,
    );
  });

  it("answers a fake extension 415 and too large 413, in Japanese", async () => {
    const { b } = await adminSite();
    const salon = await buildSalon(database.db);
    const page = `/admin/salons/edit/${salon.id}/photos`;
    const version = await versionOf(salon.id);

    const fake = await b.request(
      page,
      upload(version, new Blob(["<script>alert(1)</script>"], { type: "image/jpeg" }), "photo.jpg"),
    );
    expect(fake.status).toBe(415);
    const fakeBody = (await fake.json()) as { actionData: { errors: { photo: string } } };
    expect(fakeBody.actionData.errors.photo).toContain("JPEG・PNG・WebP・HEIC");

    // Just over 10 MB of photo: the body is accepted, the photo refused by its size.
    const over = new Blob([new Uint8Array(await pngImage()), new Uint8Array(MAX_PHOTO_BYTES)]);
    const tooLarge = await b.request(page, upload(version, over, "big.png"));
    expect(tooLarge.status).toBe(413);
    expect(
      ((await tooLarge.json()) as { actionData: { errors: { photo: string } } }).actionData.errors
        .photo,
    ).toContain("10MB");

    // Far over: refused before anything reads the body.
    const huge = new Blob([new Uint8Array(MAX_PHOTO_BYTES + 1024 * 1024)]);
    const refused = await b.request(page, upload(version, huge, "huge.jpg"));
    expect(refused.status).toBe(413);
    expect(await refused.text()).toContain("10MB");
    expect(await listSalonPhotos(database.db, salon.id)).toEqual([]);

    // Other routes keep the small default limit.
    const elsewhere = await b.request("/admin/owners", upload(version, huge, "huge.jpg"));
    expect(elsewhere.status).toBe(413);
  });
});
