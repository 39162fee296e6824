import { describe, expect, it } from "vitest";
import { loadConfig } from "./config";

describe("loadConfig", () => {
  it("has working defaults for a fresh machine", () => {
    const config = loadConfig({});
    expect(config.PORT).toBe(3000);
    expect(config.DATABASE_URL).toBe("./data/db");
    expect(config.isProduction).toBe(false);
  });

  it("reads PORT and treats empty values as unset", () => {
    expect(loadConfig({ PORT: "4100", DATABASE_URL: "" }).PORT).toBe(4100);
    expect(loadConfig({ DATABASE_URL: "" }).DATABASE_URL).toBe("./data/db");
  });

  it("fails fast with the name of the bad variable", () => {
    expect(() => loadConfig({ PORT: "eighty" })).toThrow(/PORT/);
    expect(() => loadConfig({ NODE_ENV: "staging" })).toThrow(/NODE_ENV/);
  });

  it("marks production", () => {
    expect(loadConfig({ NODE_ENV: "production" }).isProduction).toBe(true);
  });
});
