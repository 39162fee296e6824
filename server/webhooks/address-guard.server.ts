import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";

/**
 * Where a salon's webhook may be sent (decision 0086): never to the server's
 * own network. A URL is https (http only to loopback when
 * WEBHOOK_ALLOW_LOOPBACK is on); its host is resolved and every address it
 * has is checked, IPv4 and IPv6, before any request, and the request then
 * connects to the address that was checked (no second lookup a DNS answer
 * could change in between).
 */

// Two lists: a BlockList also matches IPv4 addresses against IPv4-mapped IPv6 rules.
const blockedV4 = new BlockList();
const blockedV6 = new BlockList();
// IPv4: "this" network, private, carrier-grade NAT, loopback, link-local, IETF, TEST-NETs,
// benchmarking, multicast, reserved and broadcast.
for (const [net, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  blockedV4.addSubnet(net, prefix, "ipv4");
}
// IPv6: unspecified, loopback, IPv4-mapped and -translated (checked as their IPv4 too),
// discard, documentation, unique local, link-local, site-local, multicast.
for (const [net, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["::ffff:0:0", 96],
  ["64:ff9b::", 96],
  ["64:ff9b:1::", 48],
  ["100::", 64],
  ["2001::", 23],
  ["2001:db8::", 32],
  ["2002::", 16],
  ["fc00::", 7],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
] as const) {
  blockedV6.addSubnet(net, prefix, "ipv6");
}

const loopbackV4 = new BlockList();
loopbackV4.addSubnet("127.0.0.0", 8, "ipv4");

/** Whether one address is loopback (127.0.0.0/8, ::1, or ::ffff:127.x.x.x). */
export function isLoopbackAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return loopbackV4.check(address, "ipv4");
  if (family !== 6) return false;
  const mapped = mappedIpv4(address);
  if (mapped) return loopbackV4.check(mapped, "ipv4");
  return /^(0{0,4}:){2,7}0{0,3}1$/.test(address) || address === "::1";
}

/** The IPv4 address inside ::ffff:a.b.c.d (or its hex form), else null. */
function mappedIpv4(address: string): string | null {
  const lower = address.toLowerCase();
  const dotted = /^(?:0{0,4}:){0,5}:?ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted?.[1]) return dotted[1];
  const hex = /^(?:0{0,4}:){0,5}:?ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (hex?.[1] && hex[2]) {
    const high = Number.parseInt(hex[1], 16);
    const low = Number.parseInt(hex[2], 16);
    return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
  }
  return null;
}

/** Whether a request may go to this address: public, or loopback when allowed. */
export function isAllowedAddress(address: string, allowLoopback: boolean): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  if (isLoopbackAddress(address)) return allowLoopback;
  if (family === 4) return !blockedV4.check(address, "ipv4");
  const mapped = mappedIpv4(address);
  if (mapped) return !blockedV4.check(mapped, "ipv4");
  return !blockedV6.check(address, "ipv6");
}

export type UrlProblem = { ok: false; message: string };

/**
 * The URL's shape, as the back office's form checks it (no lookup): https,
 * or http to a loopback host when allowed; no user name or password; at most
 * 2,000 characters.
 */
export function checkEndpointUrl(
  raw: string,
  allowLoopback: boolean,
): { ok: true; url: URL } | UrlProblem {
  const text = raw.trim();
  if (text === "") return { ok: false, message: "URLを入力してください。" };
  if (text.length > 2000) return { ok: false, message: "URLは2000文字以内で入力してください。" };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, message: "URLの形式が正しくありません（https://… で入力してください）。" };
  }
  if (url.username || url.password) {
    return { ok: false, message: "URLにユーザー名やパスワードを含めないでください。" };
  }
  const host = hostOf(url);
  const literal = isIP(host) !== 0;
  if (url.protocol === "http:") {
    const loopbackHost = host === "localhost" || (literal && isLoopbackAddress(host));
    if (!(allowLoopback && loopbackHost)) {
      return { ok: false, message: "URLは https:// で始めてください。" };
    }
    return { ok: true, url };
  }
  if (url.protocol !== "https:") {
    return { ok: false, message: "URLは https:// で始めてください。" };
  }
  if (literal && !isAllowedAddress(host, allowLoopback)) {
    return { ok: false, message: "社内ネットワークやループバックのアドレスには送信できません。" };
  }
  if (!literal && (host === "localhost" || host.endsWith(".localhost")) && !allowLoopback) {
    return { ok: false, message: "社内ネットワークやループバックのアドレスには送信できません。" };
  }
  return { ok: true, url };
}

/** The URL's host without IPv6 brackets. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, "$1");
}

export class RefusedAddressError extends Error {
  constructor(readonly host: string) {
    super(`refused address for ${host}`);
    this.name = "RefusedAddressError";
  }
}

/**
 * The address to connect to: the host resolved (every address, IPv4 and
 * IPv6), refused when any of them is not allowed, so a name that points
 * partly inside the network is refused outright.
 */
export async function resolveAllowed(
  host: string,
  allowLoopback: boolean,
): Promise<{ address: string; family: 4 | 6 }> {
  const family = isIP(host);
  const addresses =
    family === 0 ? await lookup(host, { all: true, verbatim: true }) : [{ address: host, family }];
  if (addresses.length === 0) throw new RefusedAddressError(host);
  for (const { address } of addresses) {
    if (!isAllowedAddress(address, allowLoopback)) throw new RefusedAddressError(host);
  }
  const [first] = addresses;
  if (!first) throw new RefusedAddressError(host);
  return { address: first.address, family: first.family === 6 ? 6 : 4 };
}
