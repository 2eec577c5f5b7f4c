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

/**
 * Ranges no webhook may reach: loopback, private, link-local, CGNAT,
 * multicast, reserved. One list per family: a BlockList checks an IPv4
 * address against IPv6 rules as its IPv4-mapped form, which the IPv6 list
 * refuses as a whole.
 */
const BLOCKED_IPV4 = new BlockList();
const BLOCKED_IPV6 = new BlockList();
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
  BLOCKED_IPV4.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  ["::", 128], // unspecified
  ["::1", 128], // loopback
  ["100::", 64], // discard
  ["2001:2::", 48], // benchmarking
  ["2001:db8::", 32], // documentation
  ["fc00::", 7], // unique local
  ["fe80::", 10], // link-local
  ["fec0::", 10], // the old site-local
  ["ff00::", 8], // multicast
  // The ranges that carry an IPv4 address, or reach one through a
  // translator or a tunnel: refused whichever address they carry, since a
  // host may route them to a private one however they are spelled.
  ["::", 96], // IPv4-compatible (::a.b.c.d)
  ["::ffff:0:0", 96], // IPv4-mapped (::ffff:a.b.c.d)
  ["::ffff:0:0:0", 96], // IPv4-translated (::ffff:0:a.b.c.d)
  ["64:ff9b::", 96], // NAT64, the well-known prefix
  ["64:ff9b:1::", 48], // NAT64, local use
  ["2001::", 32], // Teredo
  ["2002::", 16], // 6to4
] as const) {
  BLOCKED_IPV6.addSubnet(network, prefix, "ipv6");
}

const withoutBrackets = (host: string) => host.replace(/^\[|\]$/g, "");

/**
 * Whether an IP address (v4 or v6, with or without brackets or a zone id) is
 * one no webhook may reach. The BlockList reads every spelling of an
 * address (compressed or not, either case, a dotted IPv4 tail); a zone id
 * names the link, not the address, and is left out.
 */
export function isBlockedAddress(address: string): boolean {
  const bare = withoutBrackets(address);
  const zone = bare.indexOf("%");
  const ip = zone === -1 ? bare : bare.slice(0, zone);
  const family = isIP(ip);
  if (family === 4) return BLOCKED_IPV4.check(ip, "ipv4");
  if (family === 6) return BLOCKED_IPV6.check(ip, "ipv6");
  return true;
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
  const bare = withoutBrackets(host);
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
