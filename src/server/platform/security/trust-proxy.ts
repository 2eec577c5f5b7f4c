/**
 * Which X-Forwarded-* headers Fastify believes (TRUST_PROXY). request.ip is
 * what the rate limits and the sign-in locks count, so believing a header the
 * client wrote itself would let it pick a fresh address for every request.
 * The same test decides whether a request's X-Request-Id is taken
 * (platform/ops/request-id.ts).
 */
import proxyAddr from "@fastify/proxy-addr";
import type { PlatformConfig } from "../server-settings.ts";

/** Whether the `hop`th address of a request's chain (0: the peer of the socket) is a proxy of the site's. */
export type ProxyTrust = (address: string, hop: number) => boolean;

/**
 * A list of addresses is compiled as Fastify itself would. Fastify 5.12
 * ignores a bare hop count (it then trusts nothing), so a count becomes a
 * function believing the `hops` entries nearest the server, the ones the
 * site's own proxies appended. A count cannot tell a proxy from a client
 * talking to the server directly: it is safe only while the server is
 * reachable through the proxy alone (docs/operations/deploying.md, "Behind a reverse proxy").
 */
export function proxyTrust(setting: PlatformConfig["TRUST_PROXY"]): ProxyTrust | false {
  if (setting === false) return false;
  if (typeof setting === "number") return (_address, hop) => hop < setting;
  return proxyAddr.compile(setting);
}
