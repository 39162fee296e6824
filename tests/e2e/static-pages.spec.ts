import { expect, test } from "./fixtures";

const pages = [
  { path: "/about", heading: "Salon Naviについて" },
  { path: "/company", heading: "運営会社" },
  { path: "/contact", heading: "お問い合わせ" },
  { path: "/user-policy", heading: "利用規約" },
  { path: "/privacy-policy", heading: "プライバシーポリシー" },
  { path: "/articles", heading: "特集・記事" },
];

for (const { path, heading } of pages) {
  test(`${path} answers 200 with its heading and no axe violations`, async ({ page, axe }) => {
    const response = await page.goto(path);
    expect(response?.status()).toBe(200);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(heading);
    await expect(page).toHaveTitle(new RegExp(heading));
    await axe.check();
  });
}

for (const slug of ["about", "about-intern", "about-reward", "interview-01"]) {
  test(`/articles/${slug} renders its Markdown from the database`, async ({ page, axe }) => {
    const response = await page.goto(`/articles/${slug}`);
    expect(response?.status()).toBe(200);
    const heading = page.getByRole("heading", { level: 1 });
    await expect(heading).not.toBeEmpty();
    // Markdown headings become real h2 elements.
    expect(await page.locator("article .prose-article h2").count()).toBeGreaterThan(0);
    await axe.check();
  });
}

test("the articles index links to every article page", async ({ page }) => {
  await page.goto("/articles");
  for (const slug of ["about", "about-intern", "about-reward", "interview-01"]) {
    await expect(page.locator(`a[href="/articles/${slug}"]`)).toHaveCount(1);
  }
});

test("the footer links every static page", async ({ page }) => {
  await page.goto("/");
  const footer = page.getByRole("contentinfo");
  for (const { path } of pages) {
    await expect(footer.locator(`a[href="${path}"]`)).toHaveCount(1);
  }
});
