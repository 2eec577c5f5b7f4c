/**
 * Where a webhook may be aimed. A webhook is a request the server makes to
 * an address an owner typed, so without a check it could be aimed at the
 * server itself, the cloud's metadata service or anything else inside the
 * firm's network. Addresses are checked twice: the typed host when saved
 * (a literal address, or a name for this computer), and every address a
 * name resolves to when delivered, the connection then made to the address
 * checked (a name that resolved to a public address when saved may resolve
 * to a private one later: DNS rebinding).
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from "node:dns";
import { BlockList, isIP } from "node:net";
import { WEBHOOK_TEXTS } from "../../../shared/admin/webhooks.ts";

/** What the address rules depend on: the server's settings. */
export interface AddressPolicy {
  /** WEBHOOKS_ALLOW_PRIVATE: a firm's tool on its own network, over http too. */
  allowPrivate: boolean;
  /** NODE_ENV=production: https only, unless private addresses are allowed. */
  production: boolean;
}

/** Ranges no webhook may reach: loopback, private, link-local, CGNAT, multicast, reserved. */
const BLOCKED = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8], // "this network", 0.0.0.0 included
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local, the cloud metadata services
  ["172.16.0.0", 12],
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // documentation
  ["192.168.0.0", 16],
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast included
] as const) {
  BLOCKED.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  ["::", 128], // unspecified
  ["::1", 128], // loopback
  ["100::", 64], // discard
  ["2001:db8::", 32], // documentation
  ["fc00::", 7], // unique local
  ["fe80::", 10], // link-local
  ["fec0::", 10], // the old site-local
  ["ff00::", 8], // multicast
] as const) {
  BLOCKED.addSubnet(network, prefix, "ipv6");
}

/** The eight 16-bit groups of an IPv6 address (already known to be one). */
function ipv6Groups(address: string): number[] {
  let text = address.replace(/^\[|\]$/g, "").split("%")[0] ?? "";
  // A dotted IPv4 tail (::ffff:127.0.0.1) is two groups.
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = "", tail] = text.split("::");
  const headGroups = head ? head.split(":") : [];
  const tailGroups = tail ? tail.split(":") : [];
  const missing = tail === undefined ? 0 : 8 - headGroups.length - tailGroups.length;
  return [...headGroups, ...Array<string>(missing).fill("0"), ...tailGroups].map((group) =>
    Number.parseInt(group, 16),
  );
}

/**
 * The IPv4 address an IPv6 one carries: IPv4-mapped (::ffff:a.b.c.d),
 * IPv4-compatible (::a.b.c.d), NAT64 (64:ff9b::a.b.c.d) and 6to4
 * (2002:ab:cd::), each of which a host may route to the IPv4 address.
 */
function embeddedIpv4(groups: number[]): string | null {
  const [g0, g1, g2, g3, g4, g5, g6 = 0, g7 = 0] = groups;
  const quad = (high: number, low: number) =>
    `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
  const zeroTo = (end: number) => groups.slice(0, end).every((group) => group === 0);
  if (zeroTo(5) && g5 === 0xffff) return quad(g6, g7);
  if (zeroTo(6) && (g6 !== 0 || g7 > 1)) return quad(g6, g7);
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) {
    return quad(g6, g7);
  }
  if (g0 === 0x2002) return quad(g1 ?? 0, g2 ?? 0);
  return null;
}

/** Whether an IP address (v4 or v6, with or without brackets) is one no webhook may reach. */
export function isBlockedAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, "");
  const family = isIP(bare.split("%")[0] ?? "");
  if (family === 4) return BLOCKED.check(bare, "ipv4");
  if (family !== 6) return true;
  const groups = ipv6Groups(bare);
  const ipv4 = embeddedIpv4(groups);
  if (ipv4 !== null && BLOCKED.check(ipv4, "ipv4")) return true;
  const normal = groups.map((group) => group.toString(16)).join(":");
  return BLOCKED.check(normal, "ipv6");
}

/** A host name for this computer, whatever DNS would say (RFC 6761). */
function namesThisComputer(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, "");
  return name === "localhost" || name.endsWith(".localhost");
}

/**
 * Why a typed address may not be a webhook's (the sentence the owner sees),
 * or null when it may. Only what the address itself says is judged here; a
 * name is resolved and checked at each delivery.
 */
export function addressRefusal(text: string, policy: AddressPolicy): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return WEBHOOK_TEXTS.urlInvalid;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return WEBHOOK_TEXTS.httpOrHttps;
  if (url.username !== "" || url.password !== "") return WEBHOOK_TEXTS.urlCredentials;
  if (url.protocol === "http:" && policy.production && !policy.allowPrivate) {
    return WEBHOOK_TEXTS.httpsOnly;
  }
  if (policy.allowPrivate) return null;
  const host = url.hostname;
  const bare = host.replace(/^\[|\]$/g, "");
  if (isIP(bare) !== 0 || /^[0-9.]+$/.test(bare) || /^0x/i.test(bare)) {
    // The URL parser has already turned 2130706433, 0x7f.1 and 127.1 into 127.0.0.1.
    return isBlockedAddress(bare) ? WEBHOOK_TEXTS.privateAddress(bare) : null;
  }
  if (namesThisComputer(host)) return WEBHOOK_TEXTS.localName(host);
  return null;
}

/** A delivery refused because its host resolved to an address no webhook may reach. */
export class BlockedAddressError extends Error {
  constructor(
    readonly host: string,
    readonly address: string,
  ) {
    super(
      `${host} resolved to ${address}, a loopback, private or reserved address: not delivered (WEBHOOKS_ALLOW_PRIVATE allows it)`,
    );
    this.name = "BlockedAddressError";
  }
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A `lookup` for node:http(s) that resolves a name and refuses it when any
 * of its addresses is blocked: the socket then connects to an address
 * that was checked, never to one a second resolution could swap in.
 */
export function guardedLookup(policy: AddressPolicy) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) {
        callback(error, []);
        return;
      }
      const blocked = policy.allowPrivate
        ? undefined
        : addresses.find((entry) => isBlockedAddress(entry.address));
      if (blocked) {
        callback(new BlockedAddressError(hostname, blocked.address), []);
        return;
      }
      if (options.all) {
        callback(null, addresses);
        return;
      }
      const [first] = addresses;
      if (!first) {
        callback(Object.assign(new Error(`${hostname} has no address`), { code: "ENOTFOUND" }), []);
        return;
      }
      callback(null, first.address, first.family);
    });
  };
}
