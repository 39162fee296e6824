import { describe, expect, it } from "vitest";
import { isViewport, viewportFor } from "./viewport";

const at = (width: number) => viewportFor((minWidth) => width >= minWidth);

describe("viewportFor", () => {
  it.each([
    [300, "mobile"],
    [320, "mobile"],
    [375, "mobileMedium"],
    [424, "mobileMedium"],
    [425, "mobileWide"],
    [768, "tablet"],
    [1023, "tablet"],
    [1024, "desktop"],
    [1280, "desktopMedium"],
    [1600, "desktopWide"],
    [2560, "desktopWide"],
  ])("%i px is %s", (width, name) => {
    expect(at(width)).toBe(name);
  });

  it("accepts only known names from a cookie", () => {
    expect(isViewport("tablet")).toBe(true);
    expect(isViewport("huge")).toBe(false);
  });
});
