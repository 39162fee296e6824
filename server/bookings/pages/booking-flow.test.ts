import { describe, expect, it } from "vitest";
import { flowMessages, MAX_MENUS, parseFlowParams } from "./booking-flow.server";

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;

describe("parseFlowParams", () => {
  it("reads menus, stylist, coupon, date and hold", () => {
    const parsed = parseFlowParams(
      new URLSearchParams([
        ["menu", id(1)],
        ["menu", id(2)],
        ["menu", id(1)],
        ["staff", "stylist-a"],
        ["coupon", id(3)],
        ["date", "2026-11-23"],
        ["hold", id(4)],
        ["changed", "menus"],
      ]),
    );
    expect(parsed).toEqual({
      menuIds: [id(1), id(2)],
      staffSlug: "stylist-a",
      couponId: id(3),
      date: "2026-11-23",
      holdId: id(4),
      menusChanged: true,
      problems: [],
    });
  });

  it("drops each malformed parameter with a Japanese message and keeps the rest", () => {
    const parsed = parseFlowParams(
      new URLSearchParams([
        ["menu", id(1)],
        ["menu", "1; drop table"],
        ["staff", "../admin"],
        ["coupon", "abc"],
        ["date", "2026-02-30"],
        ["hold", "x"],
      ]),
    );
    expect(parsed.menuIds).toEqual([id(1)]);
    expect(parsed.staffSlug).toBeNull();
    expect(parsed.couponId).toBeNull();
    expect(parsed.date).toBeNull();
    expect(parsed.holdId).toBeNull();
    expect(parsed.problems).toEqual([
      flowMessages.menu,
      flowMessages.staff,
      flowMessages.coupon,
      flowMessages.date,
      flowMessages.hold,
    ]);
  });

  it("treats an empty stylist as 指名なし and refuses too many menus", () => {
    const many = Array.from({ length: MAX_MENUS + 1 }, (_, n) => ["menu", id(n + 1)]);
    const parsed = parseFlowParams(new URLSearchParams([...many, ["staff", ""]]));
    expect(parsed.staffSlug).toBeNull();
    expect(parsed.menuIds).toHaveLength(MAX_MENUS);
    expect(parsed.problems).toEqual([flowMessages.tooManyMenus]);
  });
});
