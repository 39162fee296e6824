import { describe, expect, it } from "vitest";
import { loadConfig } from "../config";
import { clientAddress } from "./client-ip";

describe("clientAddress", () => {
  it("ignores X-Forwarded-For unless proxies are trusted", () => {
    expect(clientAddress("10.0.0.1", "198.51.100.7", 0)).toBe("10.0.0.1");
    expect(clientAddress(undefined, undefined, 0)).toBe("unknown");
  });

  it("takes the entry N hops from the right, not the client-supplied first one", () => {
    // The client sent "1.1.1.1"; our one proxy appended the real address.
    expect(clientAddress("10.0.0.1", "1.1.1.1, 198.51.100.7", 1)).toBe("198.51.100.7");
    // Two proxies: the outer one saw 198.51.100.7, the inner one appended the outer's address.
    expect(clientAddress("10.0.0.1", "1.1.1.1, 198.51.100.7, 10.0.0.2", 2)).toBe("198.51.100.7");
    expect(clientAddress("10.0.0.1", "198.51.100.7", 3)).toBe("198.51.100.7");
    expect(clientAddress("10.0.0.1", " , ", 1)).toBe("10.0.0.1");
  });
});

describe("TRUST_PROXY", () => {
  it("reads a hop count, with true meaning one and false or unset meaning none", () => {
    expect(loadConfig({}).TRUST_PROXY).toBe(0);
    expect(loadConfig({ TRUST_PROXY: "false" }).TRUST_PROXY).toBe(0);
    expect(loadConfig({ TRUST_PROXY: "true" }).TRUST_PROXY).toBe(1);
    expect(loadConfig({ TRUST_PROXY: "2" }).TRUST_PROXY).toBe(2);
    expect(() => loadConfig({ TRUST_PROXY: "maybe" })).toThrow(/TRUST_PROXY/);
  });
});
