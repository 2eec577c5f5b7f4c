/**
 * Which X-Forwarded-* headers Fastify believes (TRUST_PROXY). request.ip is
 * what the rate limits and the sign-in locks count, so believing a header the
 * client wrote itself would let it pick a fresh address for every request.
 */
import type { FastifyServerOptions } from "fastify";
import type { Config } from "../config.ts";

/**
 * A list of addresses goes to Fastify as it is. Fastify 5.12 ignores a bare
 * hop count (it then trusts nothing), so a count becomes a function believing
 * the `hops` entries nearest the server, the ones the site's own proxies
 * appended. A count cannot tell a proxy from a client talking to the server
 * directly: it is safe only while the server is reachable through the proxy
 * alone (README, Deploying).
 */
export function proxyTrust(setting: Config["TRUST_PROXY"]): FastifyServerOptions["trustProxy"] {
  if (typeof setting !== "number") return setting;
  return (_address, hop) => hop < setting;
}
