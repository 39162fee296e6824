import { describe, expect, it } from "vitest";
import { renderMarkdown } from "./articles";

describe("renderMarkdown", () => {
  it("renders headings, paragraphs and lists", () => {
    const html = renderMarkdown("## 見出し\n\n本文です。\n\n- ひとつ\n- ふたつ\n");
    expect(html).toContain("<h2>見出し</h2>");
    expect(html).toContain("<p>本文です。</p>");
    expect(html).toContain("<li>ひとつ</li>");
  });

  it("escapes raw HTML instead of passing it through", () => {
    const html = renderMarkdown('<script>alert("x")</script>\n\n<img src=x onerror=alert(1)>');
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("<img");
    expect(html).toContain("&#60;script&#62;");
  });
});
