import { describe, expect, it } from "vitest";
import { breadcrumbJsonLd, serializeJsonLd } from "./json-ld";

describe("JSON-LD", () => {
  it("cannot close its script element, and still parses to the same value", () => {
    const value = { name: "</script><script>alert(1)</script> & co" };
    const text = serializeJsonLd(value);
    expect(text).not.toContain("<");
    expect(text).not.toContain(">");
    expect(JSON.parse(text)).toEqual(value);
  });

  it("numbers breadcrumb items from 1 with absolute URLs", () => {
    expect(
      breadcrumbJsonLd(
        [
          { name: "トップ", path: "/" },
          { name: "渋谷", path: "/area/shibuya" },
        ],
        "https://salon.example.jp",
      ).itemListElement,
    ).toEqual([
      { "@type": "ListItem", position: 1, name: "トップ", item: "https://salon.example.jp/" },
      {
        "@type": "ListItem",
        position: 2,
        name: "渋谷",
        item: "https://salon.example.jp/area/shibuya",
      },
    ]);
  });
});
