/**
 * Whether a host is this machine: a loopback address (127.0.0.0/8, ::1, and
 * ::ffff:127.x.y.z, read as IPv4), in brackets or not, or the name
 * localhost. Any other name may resolve anywhere, and 0.0.0.0 and :: are
 * every address the machine has.
 */
import { BlockList, isIP } from "node:net";

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet("127.0.0.0", 8, "ipv4");
LOOPBACK.addAddress("::1", "ipv6");

export function isLoopbackHost(host: string): boolean {
  const bare = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
  if (bare.toLowerCase() === "localhost") return true;
  const family = isIP(bare);
  return family !== 0 && LOOPBACK.check(bare, family === 4 ? "ipv4" : "ipv6");
}
