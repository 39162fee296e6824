import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { parseSearchQuery } from "../../../common/search.schema";
import type { SearchCorrection } from "../../../server/salons/search-correction";
import { SearchCorrectionNotice } from "./search-correction";

/** Server-renders the notice inside a data router, as the page would be. */
function render(correction: SearchCorrection | null) {
  return renderView(() => createElement(SearchCorrectionNotice, { correction }));
}

function renderView(component: () => ReturnType<typeof createElement>) {
  const Stub = createRoutesStub([{ path: "/", Component: component }]);
  // React marks the seams between text pieces with empty comments; the page reads as one text.
  return renderToString(createElement(Stub, { initialEntries: ["/"] })).replaceAll("<!-- -->", "");
}

const correction: SearchCorrection = {
  typed: "表参堂",
  suggested: "表参道",
  query: parseSearchQuery(new URLSearchParams("q=表参道 カット&genre=hair")),
  total: 12,
  totalIsLowerBound: false,
};

describe("SearchCorrectionNotice", () => {
  it("asks 「表参道」で検索しますか？ with the count, as a link to that search", () => {
    const html = render(correction);
    expect(html).toContain("もしかして：");
    const link = /<a [^>]*href="([^"]+)"[^>]*>([^<]*)<\/a>/.exec(html);
    expect(link?.[2]).toBe("「表参道」で検索しますか？（12件）");
    const params = new URLSearchParams((link?.[1] ?? "").replaceAll("&amp;", "&").split("?")[1]);
    expect(params.get("q")).toBe("表参道 カット");
    expect(params.get("genre")).toBe("hair");
  });

  it("says 100件以上 past the cap, and renders nothing without a correction", () => {
    expect(render({ ...correction, total: 100, totalIsLowerBound: true })).toContain(
      "で検索しますか？（100件以上）",
    );
    expect(render(null)).not.toContain("もしかして");
  });
});
