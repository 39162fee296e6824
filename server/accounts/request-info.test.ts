import { describe, expect, it } from "vitest";
import { pathOf, safeRedirectPath } from "./request-info";

describe("safeRedirectPath", () => {
  it("keeps paths on this site, with their query and fragment", () => {
    expect(safeRedirectPath("/account/favorite?x=1")).toBe("/account/favorite?x=1");
    expect(safeRedirectPath("/salons/search?q=%E6%9D%B1%E4%BA%AC#results")).toBe(
      "/salons/search?q=%E6%9D%B1%E4%BA%AC#results",
    );
    expect(safeRedirectPath("/")).toBe("/");
  });

  it.each([
    "//evil.example",
    "/\\evil.example",
    "/%09/evil.example",
    "/%5Cevil.example",
    "/%5cevil.example",
    "/%2F/evil.example",
    "/\t/evil.example",
    "/\n/evil.example",
    "/%0d%0a/evil.example",
    "/.//evil.example",
    "/..//evil.example",
    "/a/..//evil.example",
    "/%2e//evil.example",
    "/%2e%2e//evil.example",
    "/.%2F/evil.example",
    "/\u0000",
    "https://evil.example/",
    "http:/evil.example",
    "javascript:alert(1)",
    "evil.example",
    "",
    "/%E0",
  ])("refuses %j", (hostile) => {
    expect(safeRedirectPath(hostile, "/fallback")).toBe("/fallback");
  });

  it("refuses what is not a string", () => {
    expect(safeRedirectPath(null)).toBe("/");
    expect(safeRedirectPath(undefined, "")).toBe("");
    expect(safeRedirectPath(["/a"])).toBe("/");
  });
});

describe("pathOf", () => {
  const of = (url: string) => pathOf(new Request(`http://localhost:3000${url}`));

  it("is the path and query of a document request", () => {
    expect(of("/account/favorite?x=1")).toBe("/account/favorite?x=1");
  });

  it("is the page, not the data URL, for a client navigation", () => {
    expect(of("/account/favorite.data?x=1&_routes=routes%2Faccount.favorite")).toBe(
      "/account/favorite?x=1",
    );
    expect(of("/_root.data?_routes=root")).toBe("/");
    expect(of("/_.data?_routes=root")).toBe("/");
  });
});
