/**
 * Security headers, from helmet. The Content-Security-Policy allows scripts
 * only from this origin; a page adds its own inline scripts by hash
 * (pages/plugin.ts sends contentSecurityPolicy(hashes) with each page).
 *
 * Helmet's X-Frame-Options is left out: `frame-ancestors 'none'` says the
 * same, and its SAMEORIGIN contradicted it. Strict-Transport-Security goes
 * only with answers sent over HTTPS (directly, or through a trusted proxy
 * that says so in X-Forwarded-Proto), as RFC 6797 asks: over plain HTTP it
 * means nothing, and a site served only over HTTP must not claim HTTPS.
 *
 * The helmet middleware is built once and applied to each request; the
 * Fastify wrapper (@fastify/helmet) builds it anew for every request, which
 * cost about 5 % of the server's time under load (docs/benchmarks.md).
 */
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import helmet from "helmet";

function directives(inlineScriptHashes: readonly string[]) {
  return {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'", ...inlineScriptHashes.map((hash) => `'${hash}'`)],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", "data:"],
    mediaSrc: ["'self'"],
    connectSrc: ["'self'"],
    fontSrc: ["'self'"],
    objectSrc: ["'none'"],
    frameAncestors: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
  };
}

const kebab = (name: string) => name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

/** The policy as a header value, allowing the given inline scripts (`sha256-…`). */
export function contentSecurityPolicy(inlineScriptHashes: readonly string[]): string {
  return Object.entries(directives(inlineScriptHashes))
    .map(([name, sources]) => `${kebab(name)} ${sources.join(" ")}`)
    .join(";");
}

/** Powerful features no page of the site uses, denied to it and to anything it embeds. */
const DENIED_FEATURES = [
  "accelerometer",
  "browsing-topics",
  "camera",
  "display-capture",
  "geolocation",
  "gyroscope",
  "hid",
  "magnetometer",
  "microphone",
  "midi",
  "payment",
  "serial",
  "usb",
  "xr-spatial-tracking",
];
export const PERMISSIONS_POLICY = DENIED_FEATURES.map((feature) => `${feature}=()`).join(", ");
export const STRICT_TRANSPORT_SECURITY = "max-age=31536000; includeSubDomains";

export default fp(
  async function headers(app: FastifyInstance) {
    const secure = helmet({
      contentSecurityPolicy: { useDefaults: false, directives: directives([]) },
      crossOriginEmbedderPolicy: false,
      strictTransportSecurity: false,
      xFrameOptions: false,
    });
    app.addHook("onRequest", (request, reply, done) => {
      reply.raw.setHeader("permissions-policy", PERMISSIONS_POLICY);
      if (request.protocol === "https") {
        reply.raw.setHeader("strict-transport-security", STRICT_TRANSPORT_SECURITY);
      }
      secure(request.raw, reply.raw, (error?: unknown) => done(error as Error | undefined));
    });
  },
  { name: "headers" },
);
