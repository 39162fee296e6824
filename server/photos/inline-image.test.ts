import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { INLINE_IMAGE_LIMIT, inlineSiteImage, siteImageInliner } from "./inline-image.server";

const dir = mkdtempSync(path.join(tmpdir(), "inline-image-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("a page's largest image inside the page", () => {
  it("is a data: URL for a small site SVG, decoding to the file itself", () => {
    const inline = inlineSiteImage("/images/salons/esthetic-3.svg");
    expect(inline).toMatch(/^data:image\/svg\+xml,%3Csvg/);
    expect(decodeURIComponent(inline?.replace("data:image/svg+xml,", "") ?? "")).toContain(
      "</svg>",
    );
  });

  it("is null for uploads, other types, missing files and anything outside /images/", () => {
    for (const url of [
      null,
      "/uploads/salons/abc/photo.webp",
      "/images/salons/esthetic-3.png",
      "/images/salons/none-such.svg",
      "/images/../package.svg",
      "/images/salons/esthetic-3.svg?x=1",
      "https://example.jp/images/a.svg",
    ])
      expect(inlineSiteImage(url)).toBeNull();
  });

  it("keeps a file over the limit out of the page", () => {
    mkdirSync(path.join(dir, "images"), { recursive: true });
    const svg = (bytes: number) =>
      `<svg xmlns="http://www.w3.org/2000/svg">${"<g/>".repeat(bytes / 4)}</svg>`.slice(0, bytes);
    writeFileSync(path.join(dir, "images", "big.svg"), svg(INLINE_IMAGE_LIMIT + 1));
    writeFileSync(path.join(dir, "images", "small.svg"), "<svg/>");
    const inline = siteImageInliner([dir]);
    expect(inline("/images/big.svg")).toBeNull();
    expect(inline("/images/small.svg")).toBe("data:image/svg+xml,%3Csvg%2F%3E");
  });
});
