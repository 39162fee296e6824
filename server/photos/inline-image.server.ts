import { readFileSync } from "node:fs";
import path from "node:path";

/**
 * Bytes under which a site image goes inside the page as a data: URL (the
 * limit Vite uses for imported assets, `assetsInlineLimit`).
 */
export const INLINE_IMAGE_LIMIT = 4096;

/** Where the site's own images are: the build's copy of public/, else public/ (development, tests). */
const SITE_ROOTS = ["build/client", "public"];

/**
 * The page's largest image as a data: URL when it is one of the site's own
 * small SVGs (the demo salons' illustrations), else null (uploaded photos, or
 * any larger file). Issue 42: on a throttled phone every request costs a
 * round trip of over half a second, so a first photo fetched after the page
 * can never paint within a second; one inside the page paints with it. Only
 * for the one image that is the page's LCP: each costs its bytes in the HTML.
 * Read once per URL and kept (the files change only with a deploy).
 */
export function siteImageInliner(rootDirs: readonly string[] = SITE_ROOTS) {
  const roots = rootDirs.map((dir) => path.resolve(dir));
  const known = new Map<string, string | null>();
  return (url: string | null): string | null => {
    if (!url || !/^\/images\/[\w/-]+\.svg$/.test(url)) return null;
    if (known.has(url)) return known.get(url) ?? null;
    let inline: string | null = null;
    for (const root of roots) {
      const file = path.join(root, url);
      // The pattern allows no "..": the file is under the root all the same, checked.
      if (!file.startsWith(root + path.sep)) break;
      try {
        const svg = readFileSync(file, "utf8");
        if (Buffer.byteLength(svg) <= INLINE_IMAGE_LIMIT)
          inline = `data:image/svg+xml,${encodeURIComponent(svg)}`;
        break;
      } catch {
        // Not in this root: the next one.
      }
    }
    known.set(url, inline);
    return inline;
  };
}

export const inlineSiteImage = siteImageInliner();
