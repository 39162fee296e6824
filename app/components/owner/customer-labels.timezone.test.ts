import { describe, expect, it } from "vitest";
import { formatLocalDay, formatPhone } from "./customer-labels";

describe("the customers pages' wording", () => {
  it("writes phone numbers as they are read: mobile 3-4-4, Tokyo and Osaka 2-4-4, others 3-3-4", () => {
    expect(formatPhone("09012345678")).toBe("090-1234-5678");
    expect(formatPhone("0312345678")).toBe("03-1234-5678");
    expect(formatPhone("0669876543")).toBe("06-6987-6543");
    expect(formatPhone("0451234567")).toBe("045-123-4567");
    expect(formatPhone("")).toBe("");
  });

  it("names the last visit's day in the salon's zone, whatever the process's zone", () => {
    // 23:30 in Tokyo on 1 December is 14:30 UTC the same day; 00:30 on the 2nd is 15:30 UTC on the 1st.
    expect(formatLocalDay("2026-12-01T14:30:00Z", "Asia/Tokyo")).toBe("2026年12月1日(火)");
    expect(formatLocalDay("2026-12-01T15:30:00Z", "Asia/Tokyo")).toBe("2026年12月2日(水)");
    expect(formatLocalDay(null, "Asia/Tokyo")).toBe("—");
  });
});
