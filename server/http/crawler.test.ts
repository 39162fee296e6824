import { describe, expect, it } from "vitest";
import { isCrawler } from "./crawler";

describe("isCrawler", () => {
  it.each([
    "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
    "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)",
    "Mozilla/5.0 (X11; Linux x86_64) Chrome/120 Safari/537.36 Chrome-Lighthouse",
    "Google-InspectionTool/1.0",
    "Mozilla/5.0 (compatible; bingbot/2.0)",
  ])("recognises %s", (userAgent) => {
    expect(isCrawler(userAgent)).toBe(true);
  });

  it.each([
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 Mobile/15E148 Safari/604.1",
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/120.0 Safari/537.36",
  ])("lets people through: %s", (userAgent) => {
    expect(isCrawler(userAgent)).toBe(false);
  });

  it("treats a missing user agent as a person", () => {
    expect(isCrawler(undefined)).toBe(false);
  });
});
