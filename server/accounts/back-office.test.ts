import { describe, expect, it } from "vitest";
import { backOfficeLink } from "./back-office";

describe("backOfficeLink", () => {
  it("links an administrator to /admin", () => {
    expect(backOfficeLink("admin")).toEqual({ href: "/admin", label: "管理画面" });
  });

  it("links an owner to /owner (their salons' back office)", () => {
    expect(backOfficeLink("owner")).toEqual({ href: "/owner", label: "サロン管理" });
  });

  it("gives a member none", () => {
    expect(backOfficeLink("user")).toBeNull();
  });

  it("links a salon's staff (a plain account with a membership) to /owner", () => {
    expect(backOfficeLink("user", true)).toEqual({ href: "/owner", label: "サロン管理" });
  });
});
