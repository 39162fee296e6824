/** SPEC.md §9: breakpoint names and their minimum widths in CSS pixels, smallest first. */
export const viewportBreakpoints = [
  ["mobile", 320],
  ["mobileMedium", 375],
  ["mobileWide", 425],
  ["tablet", 768],
  ["desktop", 1024],
  ["desktopMedium", 1280],
  ["desktopWide", 1600],
] as const;

export type Viewport = (typeof viewportBreakpoints)[number][0];

/** What the server assumes before the browser has told it anything. */
export const FALLBACK_VIEWPORT: Viewport = "desktop";
export const VIEWPORT_COOKIE = "viewport";
export const VIEWPORT_COOKIE_MAX_AGE = 365 * 24 * 60 * 60;

export function isViewport(value: unknown): value is Viewport {
  return viewportBreakpoints.some(([name]) => name === value);
}

/** The widest breakpoint whose media query matches; below 320 px still "mobile". */
export function viewportFor(matches: (minWidth: number) => boolean): Viewport {
  let current: Viewport = "mobile";
  for (const [name, minWidth] of viewportBreakpoints) {
    if (matches(minWidth)) current = name;
  }
  return current;
}

export function isMobileViewport(viewport: Viewport): boolean {
  return viewport === "mobile" || viewport === "mobileMedium" || viewport === "mobileWide";
}
