import { describe, expect, it } from "vitest";
import { CHUNK_RELOAD_GUARD_MS, claimChunkReload, isChunkLoadError } from "./build-updates";

function memoryStorage() {
  const values = new Map<string, string>();
  return {
    getItem: (key: string) => values.get(key) ?? null,
    setItem: (key: string, value: string) => void values.set(key, value),
  };
}

describe("claimChunkReload", () => {
  it("allows one reload, then refuses until the guard window has passed", () => {
    const storage = memoryStorage();
    expect(claimChunkReload(100_000, storage)).toBe(true);
    expect(claimChunkReload(100_000 + CHUNK_RELOAD_GUARD_MS - 1, storage)).toBe(false);
    expect(claimChunkReload(100_000 + CHUNK_RELOAD_GUARD_MS, storage)).toBe(true);
  });
});

describe("isChunkLoadError", () => {
  it("recognises the browsers' dynamic import failures", () => {
    expect(
      isChunkLoadError(new TypeError("Failed to fetch dynamically imported module: /assets/x.js")),
    ).toBe(true);
    expect(isChunkLoadError(new TypeError("Importing a module script failed."))).toBe(true);
    expect(isChunkLoadError(new Error("Something else"))).toBe(false);
  });
});
