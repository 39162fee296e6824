import sharp from "sharp";
import { salonId } from "../../server/db/seed/generate";
import { phonePhoto } from "./admin-helpers";
import { expect, test } from "./fixtures";

// Issue 16, points 6 and 9 in the browser: an administrator adds a photo
// with the file picker and sees it on the salon's public page with a
// srcset, and manages a redirect rule that then redirects, all by keyboard.

/** A seeded, published salon that other specs do not book or edit. */
const SALON_ID = salonId(7);

test("an admin uploads a photo with the file picker, makes it the cover, and the salon page shows it with srcset", async ({
  page,
  login,
  axe,
}) => {
  test.setTimeout(60_000);
  await login({ role: "admin" });
  const editor = `/admin/salons/edit/${SALON_ID}/photos`;
  await page.goto(editor);
  await expect(page.getByRole("heading", { level: 2, name: "写真を追加" })).toBeVisible();
  await axe.check();
  const before = await page.getByRole("listitem", { name: /枚目/ }).count();

  await page.getByLabel("写真のファイル").setInputFiles(await phonePhoto());
  const alt = page.getByLabel("写真の説明（代替テキスト）");
  await alt.focus();
  await page.keyboard.type("E2Eの受付カウンター");
  await page.getByRole("button", { name: "アップロードする" }).focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("status").filter({ hasText: "写真を追加しました。" })).toBeVisible();
  const items = page.getByRole("listitem", { name: /枚目/ });
  await expect(items).toHaveCount(before + 1);
  await expect(items.last().getByRole("img")).toHaveAttribute("alt", "E2Eの受付カウンター");

  // To the front, one keyboard press per step: it becomes the cover.
  for (let position = before + 1; position > 1; position--) {
    await page
      .getByRole("listitem", { name: new RegExp(`^${position}枚目`) })
      .getByRole("button", { name: /前へ移動/ })
      .focus();
    await page.keyboard.press("Enter");
    await expect(
      page.getByRole("listitem", { name: new RegExp(`^${position - 1}枚目`) }).getByRole("img"),
    ).toHaveAttribute("alt", "E2Eの受付カウンター");
  }
  await expect(
    page.getByRole("listitem", { name: "1枚目（カバー写真）" }).getByRole("img"),
  ).toHaveAttribute("alt", "E2Eの受付カウンター");
  await axe.check();

  await page.getByRole("link", { name: "公開ページを見る" }).click();
  const cover = page.getByRole("list", { name: "サロンの写真" }).getByRole("img").first();
  await expect(cover).toHaveAttribute("alt", "E2Eの受付カウンター");
  await expect(cover).toHaveAttribute("srcset", /\/uploads\/\S+\.webp 400w, .+ 800w, .+ 1600w$/);
  await expect(cover).toHaveAttribute("sizes", /.+/);
  await expect(cover).toHaveAttribute("width", "1600");
  await expect(cover).toHaveAttribute("height", "1067");
  // The browser picked one of the sizes and loaded it.
  await expect
    .poll(() => cover.evaluate((img: HTMLImageElement) => img.naturalWidth))
    .toBeGreaterThan(0);
  const src = await cover.evaluate((img: HTMLImageElement) => img.currentSrc);
  const image = await page.request.get(src);
  expect(image.headers()["content-type"]).toBe("image/webp");
  expect(image.headers()["cache-control"]).toContain("immutable");
});

test("a photo dropped on the upload frame is uploaded (over 1 MB: the upload route's own body limit)", async ({
  page,
  login,
}) => {
  test.setTimeout(60_000);
  await login({ role: "admin" });
  await page.goto(`/admin/salons/edit/${SALON_ID}/photos`);
  // The drop hint appears once the page is hydrated.
  await expect(page.getByText("ドラッグ＆ドロップ")).toBeVisible();
  const before = await page.getByRole("listitem", { name: /枚目/ }).count();
  // Noise compresses badly: a JPEG of a few megabytes.
  const noise = Buffer.alloc(1600 * 1200 * 3);
  for (let i = 0; i < noise.length; i++) noise[i] = (i * 7919) % 251;
  const jpeg = await sharp(noise, { raw: { width: 1600, height: 1200, channels: 3 } })
    .jpeg({ quality: 100 })
    .toBuffer();
  expect(jpeg.length).toBeGreaterThan(1024 * 1024);
  const dataTransfer = await page.evaluateHandle((base64) => {
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    const transfer = new DataTransfer();
    transfer.items.add(new File([bytes], "dropped.jpg", { type: "image/jpeg" }));
    return transfer;
  }, jpeg.toString("base64"));
  const zone = page.getByRole("group", { name: "写真のアップロード" });
  await zone.dispatchEvent("dragover", { dataTransfer });
  await zone.dispatchEvent("drop", { dataTransfer });
  await expect(page.getByRole("status").filter({ hasText: "写真を追加しました。" })).toBeVisible();
  await expect(page.getByRole("listitem", { name: /枚目/ })).toHaveCount(before + 1);
});

test("a file that is not a photo is refused in Japanese, and an unknown salon is the 404 screen", async ({
  page,
  login,
}) => {
  await login({ role: "admin" });
  await page.goto(`/admin/salons/edit/${SALON_ID}/photos`);
  await page.getByLabel("写真のファイル").setInputFiles({
    name: "not-a-photo.jpg",
    mimeType: "image/jpeg",
    buffer: Buffer.from("これは写真ではありません"),
  });
  await page.getByRole("button", { name: "アップロードする" }).click();
  const summary = page.getByRole("alert").filter({ hasText: "入力内容を確認してください" });
  await expect(summary).toBeFocused();
  await expect(summary).toContainText("JPEG・PNG・WebP・HEIC");
  const missing = await page.goto(`/admin/salons/edit/${crypto.randomUUID()}/photos`);
  expect(missing?.status()).toBe(404);
});

test("an admin adds, edits and deletes a redirect rule by keyboard, and it redirects", async ({
  page,
  login,
  axe,
}) => {
  test.setTimeout(60_000);
  await login({ role: "admin" });
  await page.goto("/admin");
  await page
    .getByRole("navigation", { name: "管理メニュー" })
    .getByRole("link", { name: "リダイレクト" })
    .focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { level: 1, name: "リダイレクト" })).toBeVisible();
  await axe.check();

  const source = `/e2e-campaign-${Date.now().toString(36)}`;
  const typeInto = async (label: string, text: string) => {
    const field = page.getByLabel(label);
    await field.focus();
    await page.keyboard.press("ControlOrMeta+a");
    await page.keyboard.type(text);
  };

  // Another host is refused; what was typed stays.
  await typeInto("転送元のパス", source);
  await typeInto("転送先", "//evil.example/");
  await page.getByRole("button", { name: "追加する" }).focus();
  await page.keyboard.press("Enter");
  const summary = page.getByRole("alert").filter({ hasText: "入力内容を確認してください" });
  await expect(summary).toBeFocused();
  await expect(summary).toContainText("他のサイト");
  await expect(page.getByLabel("転送元のパス")).toHaveValue(source);
  await axe.check();

  await typeInto("転送先", "/company");
  await page.getByRole("radio", { name: /恒久的（301）/ }).focus();
  await page.keyboard.press("Space");
  await page.getByRole("button", { name: "追加する" }).focus();
  await page.keyboard.press("Enter");
  await expect(
    page.getByRole("status").filter({ hasText: "リダイレクトを追加しました" }),
  ).toBeVisible();
  const row = page.getByRole("row").filter({ hasText: source });
  await expect(row).toContainText("恒久的（301）");

  const first = await page.request.get(source, { maxRedirects: 0 });
  expect(first.status()).toBe(301);
  expect(first.headers().location).toBe("/company");

  // Edit to temporary.
  await row.getByRole("link", { name: `${source} のリダイレクトを編集` }).focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { level: 2, name: "リダイレクトの編集" })).toBeVisible();
  await expect(page.getByLabel("転送元のパス")).toHaveValue(source);
  await page.getByRole("radio", { name: /一時的（302）/ }).focus();
  await page.keyboard.press("Space");
  await page.getByRole("button", { name: "変更を保存する" }).focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("status").filter({ hasText: "変更しました" })).toBeVisible();
  expect((await page.request.get(source, { maxRedirects: 0 })).status()).toBe(302);
  await page.goto(source);
  await expect(page).toHaveURL(/\/company$/);

  // Delete: the old path is an ordinary 404 again.
  await page.goto("/admin/redirects");
  await page
    .getByRole("row")
    .filter({ hasText: source })
    .getByRole("button", { name: /削除/ })
    .focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("status").filter({ hasText: "削除しました" })).toBeVisible();
  expect((await page.request.get(source, { maxRedirects: 0 })).status()).toBe(404);
});
