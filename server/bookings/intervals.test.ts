import { describe, expect, it } from "vitest";
import { intersect, merge, subtract } from "./intervals";

const iv = (start: number, end: number) => ({ start, end });

describe("merge", () => {
  it("sorts, joins overlapping and touching intervals and drops empty ones", () => {
    expect(merge([iv(50, 60), iv(10, 20), iv(15, 30), iv(30, 40), iv(45, 45), iv(70, 65)])).toEqual(
      [iv(10, 40), iv(50, 60)],
    );
  });

  it("keeps an interval that contains the next ones whole", () => {
    expect(merge([iv(0, 100), iv(10, 20), iv(30, 40)])).toEqual([iv(0, 100)]);
  });

  it("does not change its input", () => {
    const input = [iv(10, 20), iv(15, 30)];
    merge(input);
    expect(input).toEqual([iv(10, 20), iv(15, 30)]);
  });
});

describe("intersect", () => {
  it("keeps what both lists cover", () => {
    expect(intersect([iv(0, 10), iv(20, 30)], [iv(5, 25)])).toEqual([iv(5, 10), iv(20, 25)]);
  });

  it("lets one long interval meet several short ones", () => {
    expect(intersect([iv(0, 100)], [iv(10, 20), iv(30, 40), iv(90, 120)])).toEqual([
      iv(10, 20),
      iv(30, 40),
      iv(90, 100),
    ]);
  });

  it("gives nothing for touching intervals or an empty list", () => {
    expect(intersect([iv(0, 10)], [iv(10, 20)])).toEqual([]);
    expect(intersect([], [iv(0, 10)])).toEqual([]);
  });
});

describe("subtract", () => {
  it("cuts holes and trims ends", () => {
    expect(subtract([iv(0, 100)], [iv(10, 20), iv(30, 40), iv(90, 120)])).toEqual([
      iv(0, 10),
      iv(20, 30),
      iv(40, 90),
    ]);
  });

  it("lets one interval of b cover several of a", () => {
    expect(subtract([iv(0, 10), iv(20, 30), iv(40, 50)], [iv(5, 45)])).toEqual([
      iv(0, 5),
      iv(45, 50),
    ]);
  });

  it("removes an interval that is covered whole, and keeps one that only touches", () => {
    expect(subtract([iv(10, 20), iv(30, 40)], [iv(0, 20), iv(40, 50)])).toEqual([iv(30, 40)]);
  });

  it("returns a copy of a when b is empty", () => {
    expect(subtract([iv(0, 10)], [])).toEqual([iv(0, 10)]);
  });
});
