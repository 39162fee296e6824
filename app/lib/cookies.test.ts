import { describe, expect, it } from "vitest";
import { preferenceCookie, readCookie } from "./cookies";

describe("cookies", () => {
  it("reads one value among several", () => {
    expect(readCookie("a=1; theme=dark; viewport=tablet", "theme")).toBe("dark");
    expect(readCookie("a=1", "theme")).toBeUndefined();
    expect(readCookie(null, "theme")).toBeUndefined();
  });

  it("never throws on values that are not valid percent-encoding", () => {
    expect(readCookie("theme=%E0; viewport=%", "theme")).toBe("%E0");
    expect(readCookie("theme=%E0; viewport=%", "viewport")).toBe("%");
    expect(readCookie("=; ;;theme", "theme")).toBeUndefined();
  });

  it("writes a year-long, site-wide, lax cookie", () => {
    expect(preferenceCookie("viewport", "mobile", 31536000)).toBe(
      "viewport=mobile; Max-Age=31536000; Path=/; SameSite=Lax",
    );
  });

  it("refuses a name or value that would need encoding", () => {
    expect(() => preferenceCookie("theme", "dark; Path=/x", 1)).toThrow(TypeError);
    expect(() => preferenceCookie("the me", "dark", 1)).toThrow(TypeError);
  });
});
