import { describe, expect, it } from "vitest";
import { isUuid, UUID_PATTERN } from "./uuid";

describe("isUuid", () => {
  it("takes a UUID in either case", () => {
    expect(isUuid("3f0c2a4e-8d51-4c1b-9a55-2f1e0b7d9c11")).toBe(true);
    expect(isUuid("3F0C2A4E-8D51-4C1B-9A55-2F1E0B7D9C11")).toBe(true);
  });

  it.each([
    "",
    "3f0c2a4e8d514c1b9a552f1e0b7d9c11",
    "3f0c2a4e-8d51-4c1b-9a55-2f1e0b7d9c1",
    "3f0c2a4e-8d51-4c1b-9a55-2f1e0b7d9c11 ",
    "g f0c2a4e-8d51-4c1b-9a55-2f1e0b7d9c11",
    "3f0c2a4e-8d51-4c1b-9a55-2f1e0b7d9c11\n",
  ])("refuses %j", (value) => {
    expect(isUuid(value)).toBe(false);
  });

  it("refuses what is not a string", () => {
    expect(isUuid(null)).toBe(false);
    expect(isUuid(["3f0c2a4e-8d51-4c1b-9a55-2f1e0b7d9c11"])).toBe(false);
  });

  it("is a pattern JSON Schema can carry: no flags", () => {
    expect(UUID_PATTERN.flags).toBe("");
  });
});
