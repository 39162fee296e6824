import { describe, expect, it } from "vitest";
import { chooseEncoding } from "./compression";

describe("chooseEncoding", () => {
  it("prefers brotli when both are accepted", () => {
    expect(chooseEncoding("gzip, deflate, br")).toBe("br");
  });
  it("falls back to gzip", () => {
    expect(chooseEncoding("gzip, deflate")).toBe("gzip");
  });
  it("honours q=0 refusals", () => {
    expect(chooseEncoding("br;q=0, gzip")).toBe("gzip");
  });
  it("sends identity when nothing usable is accepted", () => {
    expect(chooseEncoding("identity")).toBeNull();
    expect(chooseEncoding(undefined)).toBeNull();
  });
});
