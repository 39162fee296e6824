import { describe, expect, it } from "vitest";
import { backOfficeLink } from "./back-office";

describe("backOfficeLink", () => {
  it("links an administrator to /admin", () => {
    expect(backOfficeLink("admin")).toEqual({ href: "/admin", label: "管理画面" });
  });

  it("gives a member and (until the owner pages exist) an owner none", () => {
    expect(backOfficeLink("user")).toBeNull();
    expect(backOfficeLink("owner")).toBeNull();
  });
});
