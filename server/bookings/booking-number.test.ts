import { describe, expect, it } from "vitest";
import { newBookingNumber, normalizeBookingNumber } from "./booking-number";

describe("booking numbers", () => {
  it("are 8 Crockford base32 symbols shown as XXXX-XXXX", () => {
    for (let i = 0; i < 200; i++) {
      expect(newBookingNumber()).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);
    }
  });

  it("are not sequential", () => {
    const numbers = new Set(Array.from({ length: 200 }, newBookingNumber));
    expect(numbers.size).toBe(200);
  });

  it("read back what a person types", () => {
    expect(normalizeBookingNumber("7k3m q9xd")).toBe("7K3M-Q9XD");
    expect(normalizeBookingNumber("ol23-4567")).toBe("0123-4567");
  });
});
