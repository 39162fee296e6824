import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";

/** A phone (issue 17): the search page's one-column layout. */
const PHONE = { width: 375, height: 740 };

test.use({ viewport: PHONE });

const resultsHeading = (page: Page) => page.locator("#search-results-heading");

/** The total of the results heading (「109件中 1〜20件を表示」). */
async function shownTotal(page: Page) {
  const text = (await resultsHeading(page).textContent()) ?? "";
  const total = /^(\d+)件中/.exec(text)?.[1];
  expect(total, text).toBeDefined();
  return Number(total);
}

test("on a phone the results come first and the filters open in a dialog that counts before applying", async ({
  page,
  axe,
}) => {
  await page.goto("/salons/search?genre=hair");
  await expect(resultsHeading(page)).toContainText("件中 1〜20件を表示");
  const hairTotal = await shownTotal(page);

  // Results first: the heading and the first salon are above the page's own form, in reading order too.
  const form = page.getByRole("search", { name: "サロン検索条件" });
  const firstSalon = page.locator("main article").first();
  await expect(firstSalon).toBeInViewport();
  await expect(form).not.toBeInViewport();
  expect(
    await resultsHeading(page).evaluate(
      (heading, formElement) =>
        Boolean(
          heading.compareDocumentPosition(formElement as Node) & Node.DOCUMENT_POSITION_FOLLOWING,
        ),
      await form.elementHandle(),
    ),
  ).toBe(true);

  // The chosen filter shows as a chip; the 絞り込み button says how many are chosen.
  await expect(page.getByRole("link", { name: /ヘアサロン\s*の条件を外す/ })).toBeVisible();
  const open = page.getByRole("button", { name: /^絞り込み\s*1\s*件の条件を指定中$/ });
  await expect(open).toHaveAttribute("aria-haspopup", "dialog");

  // Opened from the keyboard.
  await open.focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "絞り込み" });
  await expect(dialog).toBeVisible();
  // While it is open, the page's own form is gone: one set of controls, one set of ids.
  await expect(page.getByRole("search", { name: "サロン検索条件" })).toHaveCount(1);
  const status = dialog.getByRole("status");
  await expect(status).toHaveText(`該当するサロン ${hairTotal}件`);
  await expect(dialog).toHaveAccessibleDescription(`該当するサロン ${hairTotal}件`);
  await expect(dialog.getByRole("combobox", { name: "ジャンル" })).toHaveValue("hair");
  await axe.check();

  // Escape closes it and gives focus back to the button.
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(open).toBeFocused();
  await expect(page).toHaveURL("/salons/search?genre=hair");

  // Changing the filters recounts before anything is applied.
  await page.keyboard.press("Enter");
  await expect(dialog).toBeVisible();
  await dialog.getByRole("checkbox", { name: "個室あり" }).check();
  await expect(status).not.toHaveText(`該当するサロン ${hairTotal}件`);
  await expect(status).toHaveText(/^該当するサロン \d+件$/);
  const counted = Number(/(\d+)件/.exec((await status.textContent()) ?? "")?.[1]);
  expect(counted).toBeLessThan(hairTotal);
  expect(counted).toBeGreaterThan(0);
  await expect(page).toHaveURL("/salons/search?genre=hair");

  // Applying searches with them: the count was the search's, and focus goes to the results.
  await dialog.getByRole("button", { name: `${counted}件を表示` }).press("Enter");
  await expect(page).toHaveURL("/salons/search?genre=hair&feature=private-room");
  await expect(dialog).toBeHidden();
  await expect(resultsHeading(page)).toContainText(`${counted}件中`);
  await expect(resultsHeading(page)).toBeFocused();

  // Both chips show; removing one searches without it.
  const roomChip = page.getByRole("link", { name: /個室あり\s*の条件を外す/ });
  await expect(roomChip).toBeVisible();
  await expect(
    page.getByRole("button", { name: /^絞り込み\s*2\s*件の条件を指定中$/ }),
  ).toBeVisible();
  await axe.check();
  await page.getByRole("link", { name: /ヘアサロン\s*の条件を外す/ }).click();
  await expect(page).toHaveURL("/salons/search?feature=private-room");
  await expect(page.getByRole("link", { name: /ヘアサロン\s*の条件を外す/ })).toHaveCount(0);
  await expect(roomChip).toBeVisible();
  await expect(resultsHeading(page)).toBeFocused();
});

test("the close button dismisses the dialog without searching", async ({ page }) => {
  await page.goto("/salons/search?genre=nail");
  const open = page.getByRole("button", { name: /^絞り込み/ });
  await open.click();
  const dialog = page.getByRole("dialog", { name: "絞り込み" });
  await dialog.getByRole("combobox", { name: "ジャンル" }).selectOption("hair");
  await dialog.getByRole("button", { name: "閉じる" }).click();
  await expect(dialog).toBeHidden();
  await expect(open).toBeFocused();
  await expect(page).toHaveURL("/salons/search?genre=nail");
  // The page's own form is back, with the search's conditions, not the abandoned ones.
  await expect(
    page.getByRole("search", { name: "サロン検索条件" }).getByLabel("ジャンル"),
  ).toHaveValue("nail");
});

test("without JavaScript the 絞り込み button leads to the filter form and the chips remove filters", async ({
  browser,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: PHONE });
  const page = await context.newPage();
  await page.goto("/salons/search?genre=hair");
  await expect(page.locator("main article").first()).toBeInViewport();
  const link = page.getByRole("link", { name: /^絞り込み/ });
  await expect(link).toHaveAttribute("href", "#search-filters");
  await link.click();
  const form = page.getByRole("search", { name: "サロン検索条件" });
  await expect(form.getByLabel("キーワード")).toBeInViewport();
  await form.getByRole("checkbox", { name: "個室あり" }).check();
  await form.getByRole("button", { name: "この条件で検索" }).click();
  await expect(page).toHaveURL("/salons/search?genre=hair&feature=private-room");
  await expect(page.getByRole("link", { name: /個室あり\s*の条件を外す/ })).toBeVisible();
  await page.getByRole("link", { name: /ヘアサロン\s*の条件を外す/ }).click();
  await expect(page).toHaveURL("/salons/search?feature=private-room");
  await expect(page.locator("#search-results-heading")).toContainText("件中");
  await context.close();
});

test("the count route reads the conditions as leniently as the search page", async ({
  request,
}) => {
  const page = await request.get("/salons/search/count?genre=hair&feature=private-room");
  expect(page.status()).toBe(200);
  const { total } = (await page.json()) as { total: number };
  expect(total).toBeGreaterThan(0);
  // A bad value is dropped as on the search page (lenient parse), never a 5xx.
  const lenient = await request.get("/salons/search/count?genre=nope&priceMin=abc");
  expect(lenient.status()).toBe(200);
  const all = (await (await request.get("/salons/search/count")).json()) as { total: number };
  expect((await lenient.json()) as { total: number }).toEqual(all);
});

test("the first load: the first photo comes inside the page, the rest lazily, and compressed bundles are the bundles", async ({
  request,
}) => {
  const html = await (await request.get("/salons/search?genre=hair")).text();
  const images = [...html.matchAll(/<img [^>]*>/g)].map(([tag]) => tag);
  expect(images.length).toBeGreaterThan(1);
  expect(images[0]).not.toContain('loading="lazy"');
  // The first photo, a small site SVG, is inside the page: it paints with it (issue 42). Its
  // text is there twice, in the <img> and in the data React hydrates from (brotli sends the
  // second as a back-reference), never a third time as a preload in the head.
  const inline = /src="(data:image\/svg\+xml,[^"]+)"/.exec(images[0] ?? "")?.[1] ?? "";
  expect(inline).not.toBe("");
  expect(html.split(inline).length - 1).toBe(2);
  expect(images[1]).toMatch(/src="\/images\/salons\/[\w-]+\.svg"/);
  for (const tag of images.slice(1)) expect(tag).toContain('loading="lazy"');
  // The CSS is in the page, not a render-blocking request.
  expect(html).toContain('<style data-precedence="default" data-href="app-css">');
  // The build's brotli and gzip copies hold the same bytes as the files (vite-plugins/precompress.ts).
  const scripts = [...html.matchAll(/href="(\/assets\/[^"]+\.js)"/g)].map(([, href]) => href);
  expect(scripts.length).toBeGreaterThan(3);
  for (const href of scripts) {
    const plain = await request.get(href ?? "", { headers: { "accept-encoding": "identity" } });
    expect(plain.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
    // Files under 1 KB are not worth compressing.
    if ((await plain.body()).length < 1024) continue;
    for (const encoding of ["br", "gzip"]) {
      const packed = await request.get(href ?? "", { headers: { "accept-encoding": encoding } });
      expect(packed.headers()["content-encoding"], href).toBe(encoding);
      expect((await packed.body()).equals(await plain.body()), `${href} (${encoding})`).toBe(true);
    }
  }
});
