import { describe, expect, it } from "vitest";
import { loadConfig, type ProxyHeaders, type ProxyTrust } from "../config";
import { forwardedHops, visitorOf } from "./visitor-request";

const INTERNAL = "http://10.0.0.5:3000/signin?x=1";

function visitor(
  headers: Record<string, string>,
  trust: ProxyTrust,
  { peer = "10.0.0.2", family = "x-forwarded" as ProxyHeaders } = {},
) {
  return visitorOf(INTERNAL, new Headers(headers), peer, trust, family);
}

const none = { hops: 0 };
const one = { hops: 1 };

describe("visitorOf with X-Forwarded-*", () => {
  it("ignores every forwarded header unless proxies are trusted", () => {
    const forged = {
      "x-forwarded-for": "198.51.100.7",
      "x-forwarded-proto": "https",
      "x-forwarded-host": "evil.example",
    };
    expect(visitor(forged, none)).toEqual({ url: INTERNAL, clientAddress: "10.0.0.2" });
    expect(visitorOf(INTERNAL, new Headers(), undefined, none, "x-forwarded").clientAddress).toBe(
      "unknown",
    );
  });

  it("takes the scheme, host and address our proxy wrote", () => {
    const seen = visitor(
      {
        "x-forwarded-for": "1.1.1.1, 198.51.100.7",
        "x-forwarded-proto": "https",
        "x-forwarded-host": "salon.example.jp",
      },
      one,
    );
    // The client sent "1.1.1.1"; our one proxy appended the real address.
    expect(seen).toEqual({
      url: "https://salon.example.jp/signin?x=1",
      clientAddress: "198.51.100.7",
    });
  });

  it("keeps the request's host when the proxy sends only the scheme", () => {
    expect(visitor({ "x-forwarded-proto": "https" }, one).url).toBe(
      "https://10.0.0.5:3000/signin?x=1",
    );
  });

  it("takes the entry N hops from the right, not the client-supplied first one", () => {
    const address = (forwardedFor: string, hops: number) =>
      visitor({ "x-forwarded-for": forwardedFor }, { hops }).clientAddress;
    // Two proxies: the outer one saw 198.51.100.7, the inner one appended the outer's address.
    expect(address("1.1.1.1, 198.51.100.7, 10.0.0.3", 2)).toBe("198.51.100.7");
    expect(address("198.51.100.7", 3)).toBe("198.51.100.7");
    expect(address(" , ", 1)).toBe("10.0.0.2");
    expect(address("198.51.100.7:4711", 1)).toBe("198.51.100.7");
  });

  it("refuses a scheme or host that is not one", () => {
    const odd = visitor(
      { "x-forwarded-proto": "javascript", "x-forwarded-host": "evil.example/path@x" },
      one,
    );
    expect(odd.url).toBe(INTERNAL);
  });
});

describe("visitorOf with a list of proxy addresses", () => {
  const proxies = { proxies: ["10.0.0.0/8", "::1"] };
  const headers = {
    "x-forwarded-for": "1.1.1.1, 198.51.100.7, 10.0.0.3",
    "x-forwarded-proto": "https",
  };

  it("believes the headers only from a listed peer, and walks past listed hops", () => {
    expect(visitor(headers, proxies)).toEqual({
      url: "https://10.0.0.5:3000/signin?x=1",
      clientAddress: "198.51.100.7",
    });
    expect(visitor(headers, proxies, { peer: "::ffff:10.0.0.2" }).clientAddress).toBe(
      "198.51.100.7",
    );
    expect(visitor(headers, proxies, { peer: "::1" }).clientAddress).toBe("198.51.100.7");
  });

  it("ignores the headers from anyone else: a forged one changes nothing", () => {
    expect(visitor(headers, proxies, { peer: "203.0.113.9" })).toEqual({
      url: INTERNAL,
      clientAddress: "203.0.113.9",
    });
  });
});

describe("visitorOf with RFC 7239 Forwarded", () => {
  it("reads the element our proxy appended, quoted values and ports included", () => {
    const seen = visitor(
      {
        forwarded:
          'for=1.1.1.1;proto=http, for="[2001:db8:cafe::17]:4711";proto=https;host="salon.example.jp"',
      },
      one,
      { family: "forwarded" },
    );
    expect(seen).toEqual({
      url: "https://salon.example.jp/signin?x=1",
      clientAddress: "2001:db8:cafe::17",
    });
  });

  it("takes a field only from the trusted element, never from one the client wrote", () => {
    // The client's element says https; our proxy's says nothing about the scheme.
    const seen = visitor({ forwarded: "for=1.1.1.1;proto=https, for=198.51.100.7" }, one, {
      family: "forwarded",
    });
    expect(seen).toEqual({ url: INTERNAL, clientAddress: "198.51.100.7" });
  });

  it("ignores the other family: a proxy passes on what it does not write", () => {
    const forged = { "x-forwarded-proto": "https", "x-forwarded-for": "1.1.1.1" };
    expect(visitor(forged, one, { family: "forwarded" })).toEqual({
      url: INTERNAL,
      clientAddress: "10.0.0.2",
    });
    const forgedForwarded = { forwarded: "for=1.1.1.1;proto=https" };
    expect(visitor(forgedForwarded, one)).toEqual({ url: INTERNAL, clientAddress: "10.0.0.2" });
  });

  it("parses elements and pairs outside quotes", () => {
    expect(forwardedHops('for="a,b;c";proto=https, FOR=192.0.2.1;by=x')).toEqual([
      { for: "a,b;c", proto: "https" },
      { for: "192.0.2.1" },
    ]);
  });
});

describe("TRUST_PROXY", () => {
  it("reads a hop count, with true meaning one and false or unset meaning none", () => {
    expect(loadConfig({}).TRUST_PROXY).toEqual({ hops: 0 });
    expect(loadConfig({ TRUST_PROXY: "false" }).TRUST_PROXY).toEqual({ hops: 0 });
    expect(loadConfig({ TRUST_PROXY: "true" }).TRUST_PROXY).toEqual({ hops: 1 });
    expect(loadConfig({ TRUST_PROXY: "2" }).TRUST_PROXY).toEqual({ hops: 2 });
    expect(() => loadConfig({ TRUST_PROXY: "maybe" })).toThrow(/TRUST_PROXY/);
    expect(() => loadConfig({ TRUST_PROXY: "11" })).toThrow(/TRUST_PROXY/);
  });

  it("reads the proxies' addresses and CIDR ranges", () => {
    expect(loadConfig({ TRUST_PROXY: "10.0.0.0/8, 127.0.0.1,::1" }).TRUST_PROXY).toEqual({
      proxies: ["10.0.0.0/8", "127.0.0.1", "::1"],
    });
    for (const bad of ["10.0.0.0/33", "proxy.internal", "10.0.0.1,", "10.0.0.0/8/1"]) {
      expect(() => loadConfig({ TRUST_PROXY: bad }), bad).toThrow(/TRUST_PROXY/);
    }
  });

  it("reads which headers the proxies write, X-Forwarded-* unless told", () => {
    expect(loadConfig({}).PROXY_HEADERS).toBe("x-forwarded");
    expect(loadConfig({ PROXY_HEADERS: "forwarded" }).PROXY_HEADERS).toBe("forwarded");
    expect(() => loadConfig({ PROXY_HEADERS: "both" })).toThrow(/PROXY_HEADERS/);
  });
});
