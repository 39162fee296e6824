import type { APIRequestContext, Browser, Page } from "@playwright/test";
import { E2E_ADMIN } from "../../playwright.config";
import { expect, test } from "./fixtures";
import { DEMO_OWNER } from "./owner-helpers";

/**
 * Every page at a phone's and a tablet's width (issue 38, §2 and §1.10): no
 * sideways scrolling of the whole document, and no heading squeezed into a
 * sliver (the salon's name had 4 px at 320 px, a letter a line). One browser
 * context per width, one navigation and one measurement per page; the pages
 * with ids in their address are found from the seed's own links first.
 */

const WIDTHS = [320, 375, 768] as const;
const DEMO_STYLIST = { email: "demo-stylist@example.jp", password: "demo-pass-123" };

/** What one measurement of a page finds wrong, in words a failure can show. */
type Problems = string[];

/**
 * Run in the page: the document wider than the window (with the elements
 * sticking out), and visible h1/h2 that wrap while narrower than 120 px or
 * hold fewer than 6 characters a line. sr-only headings (1 px) are skipped.
 */
function measure(): Problems {
  const problems: string[] = [];
  const width = window.innerWidth;
  const scrollWidth = document.documentElement.scrollWidth;
  if (scrollWidth > width) {
    const describe = (element: Element) =>
      `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ""}.${String(element.className).split(" ").slice(0, 4).join(".")}「${(element.textContent ?? "").trim().slice(0, 20)}」`;
    const sticking = [...document.body.querySelectorAll("*")]
      .filter((element) => element.getBoundingClientRect().right > width + 0.5)
      // The culprits: not inside a box that clips or scrolls them.
      .filter((element) => {
        for (let up = element.parentElement; up && up !== document.body; up = up.parentElement) {
          if (getComputedStyle(up).overflowX !== "visible") return false;
        }
        return true;
      })
      .slice(0, 3)
      .map(describe);
    if (sticking.length === 0)
      sticking.push("(only inside scrolled boxes: a positioned child escaping them)");
    problems.push(`document ${scrollWidth}px wide in ${width}px: ${sticking.join(" / ")}`);
  }
  for (const heading of document.querySelectorAll("h1, h2")) {
    const box = heading.getBoundingClientRect();
    if (box.width <= 1 || box.height <= 1) continue;
    const style = getComputedStyle(heading);
    if (style.visibility === "hidden") continue;
    const fontSize = Number.parseFloat(style.fontSize);
    const lineHeight = Number.parseFloat(style.lineHeight) || fontSize * 1.2;
    const lines = Math.max(1, Math.round(box.height / lineHeight));
    const text = (heading.textContent ?? "").replace(/\s+/g, "");
    if (lines > 1 && (box.width < 120 || text.length / lines < 6)) {
      problems.push(
        `${heading.tagName.toLowerCase()}「${text.slice(0, 30)}」 ${Math.round(box.width)}px wide, ${lines} lines`,
      );
    }
  }
  return problems;
}

/** The first address on `path` matching `pattern` (its first group), from the server's HTML. */
async function firstLink(request: APIRequestContext, path: string, pattern: RegExp) {
  const html = await (await request.get(path)).text();
  const found = html.match(pattern)?.[1];
  expect(found, `a link matching ${pattern} on ${path}`).toBeTruthy();
  return found ?? "";
}

/** Signs the page's browser in through Better Auth's API (no form): the session cookie lands there. */
async function signInAs(page: Page, account: { email: string; password: string }, origin: string) {
  const response = await page.request.post("/api/auth/sign-in/email", {
    data: account,
    headers: { origin },
  });
  expect(response.status(), await response.text()).toBe(200);
}

type Pages = {
  visitor: string[];
  member: string[];
  owner: string[];
  stylist: string[];
  admin: string[];
};

let found: Promise<Pages> | undefined;

/** The pages to open, with ids taken from the seed's links (found once per worker). */
async function pagesToOpen(browser: Browser, baseURL: string): Promise<Pages> {
  found ??= (async () => {
    const context = await browser.newContext({ baseURL });
    const page = await context.newPage();
    const { request } = page;
    const salon = await firstLink(
      request,
      "/salons/search",
      /href="\/salons\/(?!search")([\w-]+)"/,
    );
    const area = await firstLink(request, "/area", /href="\/area\/([\w-]+)"/);
    const article = await firstLink(request, "/articles", /href="\/articles\/([\w-]+)"/);
    const feature = await firstLink(
      request,
      `/salons/${salon}/access`,
      /href="\/salons\/feature\/([^"?]+)"/,
    );
    const recommend = await firstLink(request, "/", /href="\/salons\/recommend\/([^"?]+)"/);
    const stylist = await firstLink(
      request,
      `/salons/${salon}/stylists`,
      /href="\/salons\/staffs\/([^"?]+)"/,
    );
    await signInAs(page, DEMO_OWNER, baseURL);
    await page.goto("/owner");
    const ownerSalon = new URL(page.url()).pathname.split("/")[3] ?? "";
    expect(ownerSalon).toMatch(/^[0-9a-f-]{36}$/);
    const base = `/owner/salons/${ownerSalon}`;
    const customer = await firstLink(
      request,
      `${base}/customers`,
      new RegExp(`href="${base}/customers/([0-9a-f-]{36})"`),
    );
    const booking = await firstLink(
      request,
      `${base}/customers/${customer}`,
      new RegExp(`href="${base}/bookings/([0-9a-f-]{36})"`),
    );
    await context.close();
    const salonPage = `/salons/${salon}`;
    return {
      visitor: [
        "/",
        "/about",
        "/company",
        "/contact",
        "/user-policy",
        "/privacy-policy",
        "/articles",
        `/articles/${article}`,
        "/area",
        `/area/${area}`,
        "/salons/search",
        salonPage,
        `${salonPage}/coupons`,
        `${salonPage}/styles`,
        `${salonPage}/stylists`,
        `${salonPage}/reviews`,
        `${salonPage}/access`,
        `${salonPage}/confirm`,
        `/salons/feature/${feature}`,
        `/salons/recommend/${recommend}`,
        `/salons/staffs/${stylist}`,
        "/signin",
        "/signup",
        "/password-reset",
        "/finish_sign_up",
        "/finish_resend_email",
        "/finish_password_reset",
        "/account/thanks",
        "/no-such-page",
      ],
      member: [
        salonPage,
        "/account/history",
        "/account/favorite",
        "/account/waitlist",
        "/account/edit",
        "/account/edit/change-email",
        "/account/edit/change-password",
      ],
      owner: [
        base,
        `${base}/bookings`,
        `${base}/bookings?view=week`,
        `${base}/bookings/new`,
        `${base}/bookings/${booking}`,
        `${base}/bookings/${booking}/move`,
        `${base}/customers`,
        `${base}/customers/${customer}`,
        `${base}/settings`,
        `${base}/settings/webhooks`,
        `${base}/schedules`,
        `${base}/day-close`,
        `${base}/reports`,
        `${base}/reviews`,
        `${base}/details`,
        `${base}/staff`,
        `${base}/menus`,
        `${base}/coupons`,
        `${base}/photos`,
        `${base}/members`,
      ],
      stylist: [`${base}/schedules/mine`],
      admin: [
        "/admin",
        "/admin/owners",
        "/admin/owners/add",
        "/admin/salons",
        "/admin/salons/add",
        `/admin/salons/edit/${ownerSalon}`,
        `/admin/salons/edit/${ownerSalon}/photos`,
        `/admin/salons/edit/${ownerSalon}/staff`,
        `/admin/salons/edit/${ownerSalon}/menus`,
        `/admin/salons/edit/${ownerSalon}/coupons`,
        "/admin/redirects",
        "/admin/reviews",
      ],
    };
  })();
  return found;
}

for (const width of WIDTHS) {
  test(`every page fits ${width} px: no sideways scrolling, no squeezed heading`, async ({
    browser,
    baseURL,
  }) => {
    test.setTimeout(240_000);
    const pages = await pagesToOpen(browser, baseURL ?? "");
    const context = await browser.newContext({ baseURL, viewport: { width, height: 800 } });
    const page = await context.newPage();
    const problems: string[] = [];
    const check = async (paths: string[], who: string) => {
      for (const path of paths) {
        await page.goto(path);
        for (const problem of await page.evaluate(measure)) {
          problems.push(`${who} ${path}: ${problem}`);
        }
      }
    };
    await check(pages.visitor, "visitor");
    // The member's pages: a new verified account (the `login` fixture's API).
    const member = await page.request.post("/api/test/login", {
      data: { role: "user" },
      headers: { origin: baseURL ?? "" },
    });
    expect(member.status()).toBe(201);
    await check(pages.member, "member");
    await signInAs(page, DEMO_OWNER, baseURL ?? "");
    await check(pages.owner, "owner");
    await signInAs(page, DEMO_STYLIST, baseURL ?? "");
    await check(pages.stylist, "stylist");
    await signInAs(page, E2E_ADMIN, baseURL ?? "");
    await check(pages.admin, "admin");
    await context.close();
    expect(problems).toEqual([]);
  });
}

/**
 * The day ledger at 1280 px (issue 38, §1.10): the price line of a booking
 * ends within the block's first 45 minutes (a 45-minute booking clipped it),
 * measured in every block of 45 minutes or more.
 * The days of the demo owner's seeded week, until one has such bookings.
 */
test("the ledger shows the price line within the first 45 minutes of every booking block at 1280 px", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const pages = await pagesToOpen(browser, baseURL ?? "");
  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await signInAs(page, DEMO_OWNER, baseURL ?? "");
  const ledger = pages.owner[1] ?? "";
  await page.goto(`${ledger}?view=week`);
  const days = await page
    .getByRole("region", { name: "週の予約台帳" })
    .locator("thead a")
    .evaluateAll((links) => links.map((link) => link.getAttribute("href") ?? ""));
  let checked = 0;
  const clipped: string[] = [];
  for (const day of days) {
    await page.goto(day);
    const found = await page.evaluate(() => {
      const rowPx = 1.5 * Number.parseFloat(getComputedStyle(document.documentElement).fontSize);
      const results: { long: boolean; fits: boolean; text: string }[] = [];
      for (const price of document.querySelectorAll<HTMLElement>("[data-ledger-price]")) {
        const block = price.closest("a");
        if (!block) continue;
        const box = block.getBoundingClientRect();
        const line = price.getBoundingClientRect();
        const border = Number.parseFloat(getComputedStyle(block).borderBottomWidth);
        // A 45-minute block: three rows of the grid, less the item's 1 px paddings and the
        // border. Measured in every long block, so any booking of 45 minutes or more tells.
        const fortyFiveMinutes = box.top + 3 * rowPx - 2 - border;
        results.push({
          long: box.height >= 3 * rowPx - 2.5,
          fits: line.bottom <= Math.min(fortyFiveMinutes, box.bottom - border) + 0.5,
          text: `${block.textContent?.slice(0, 30)} (${Math.round(box.height)}px)`,
        });
      }
      return results;
    });
    for (const entry of found.filter((result) => result.long)) {
      checked += 1;
      if (!entry.fits) clipped.push(`${day}: ${entry.text}`);
    }
    if (checked >= 10) break;
  }
  await context.close();
  expect(checked, "bookings of 45 minutes or more in the seeded week").toBeGreaterThan(0);
  expect(clipped).toEqual([]);
});
