import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ListCount } from "./back-office-ui";

const text = (total: number, page: number) =>
  renderToStaticMarkup(createElement(ListCount, { total, page, perPage: 20 })).replace(
    /<[^>]+>/g,
    "",
  );

describe("ListCount", () => {
  it("says how many there are and which of them the page shows", () => {
    expect(text(1234, 1)).toBe("1,234件（1〜20件目）");
    expect(text(45, 3)).toBe("45件（41〜45件目）");
  });

  it("says 0件 alone when nothing matched", () => {
    expect(text(0, 1)).toBe("0件");
  });
});
