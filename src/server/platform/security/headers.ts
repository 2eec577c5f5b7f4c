/**
 * Security headers, from helmet. The Content-Security-Policy allows scripts
 * and styles only from this origin, never 'unsafe-inline': a page adds its
 * own inline scripts and its one inline <style> by hash (features/pages/page-cache.ts
 * sends policyForPage(html, app.pagePolicy) with each page), and the site
 * sets no style attribute in its HTML (custom properties are set through the
 * CSSOM, which the policy does not govern).
 *
 * With CAPTCHA_PROVIDER set, the pages' policy also allows that service's
 * origins (shared/captcha.ts) for its widget's script, frame, style and
 * calls; other answers (the API, the console, files) never need them.
 *
 * Helmet's X-Frame-Options is left out: `frame-ancestors 'none'` says the
 * same, and its SAMEORIGIN contradicted it. Strict-Transport-Security goes
 * only with answers sent over HTTPS (directly, or through a trusted proxy
 * that says so in X-Forwarded-Proto), as RFC 6797 asks: over plain HTTP it
 * means nothing, and a site served only over HTTP must not claim HTTPS.
 *
 * Helmet runs once, at start, and its headers are kept as one block that
 * every answer gets (the Fastify wrapper, @fastify/helmet, builds its
 * middleware anew for every request, about 5 % of the server's time under
 * load; running the built middleware per request cost about as much).
 */
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import helmet from "helmet";
import { CAPTCHA_SERVICES, type CaptchaProvider } from "../../../shared/captcha.ts";

/** The inline scripts and styles (`sha256-…`) one page may run. */
export interface InlineHashes {
  scripts: readonly string[];
  styles: readonly string[];
}

const NO_INLINE: InlineHashes = { scripts: [], styles: [] };

/** Turns a page's inline hashes into its Content-Security-Policy header. */
export type PolicyFor = (inline: InlineHashes) => string;

const quoted = (hashes: readonly string[]) => hashes.map((hash) => `'${hash}'`);

function directives({ scripts, styles }: InlineHashes, thirdParty: readonly string[]) {
  return {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'", ...quoted(scripts), ...thirdParty],
    styleSrc: ["'self'", ...quoted(styles), ...thirdParty],
    imgSrc: ["'self'", "data:"],
    mediaSrc: ["'self'"],
    connectSrc: ["'self'", ...thirdParty],
    fontSrc: ["'self'"],
    // Without a widget to frame, frames fall back to default-src 'self'.
    ...(thirdParty.length > 0 ? { frameSrc: [...thirdParty] } : {}),
    objectSrc: ["'none'"],
    frameAncestors: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
  };
}

const kebab = (name: string) => name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

function serialize(policy: ReturnType<typeof directives>): string {
  return Object.entries(policy)
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

/**
 * The headers helmet sets, with the Permissions-Policy, computed once: they
 * are the same for every answer, so each request gets the finished block
 * rather than running helmet's dozen middlewares again.
 */
function headerBlock(middleware: ReturnType<typeof helmet>): Map<string, string> {
  const block = new Map<string, string>([["permissions-policy", PERMISSIONS_POLICY]]);
  const recorder = {
    setHeader: (name: string, value: string) => block.set(name.toLowerCase(), String(value)),
    removeHeader: (name: string) => block.delete(name.toLowerCase()),
  };
  middleware({} as never, recorder as never, (error?: unknown) => {
    if (error) throw error;
  });
  return block;
}

declare module "fastify" {
  interface FastifyInstance {
    /** The policy of a rendered page, given its inline hashes (features/pages/page-cache.ts). */
    pagePolicy: PolicyFor;
  }
}

export interface HeadersOptions {
  /** CAPTCHA_PROVIDER: the pages then allow its widget's origins. */
  captcha?: CaptchaProvider | undefined;
}

export default fp(
  async function headers(app: FastifyInstance, { captcha }: HeadersOptions) {
    const widgetOrigins = captcha ? CAPTCHA_SERVICES[captcha].origins : [];
    app.decorate("pagePolicy", (inline: InlineHashes) =>
      serialize(directives(inline, widgetOrigins)),
    );
    const block = headerBlock(
      helmet({
        contentSecurityPolicy: { useDefaults: false, directives: directives(NO_INLINE, []) },
        crossOriginEmbedderPolicy: false,
        strictTransportSecurity: false,
        xFrameOptions: false,
        // Other sites learn nothing of where their visitors were, as with
        // helmet's no-referrer; this site's own requests carry the page's
        // address, so a form posted without JavaScript names the page (and
        // its UTM tags) that held it: the lead's source (ADR 052).
        referrerPolicy: { policy: "same-origin" },
      }),
    );
    app.addHook("onRequest", (request, reply, done) => {
      reply.raw.setHeaders(block);
      if (request.protocol === "https") {
        reply.raw.setHeader("strict-transport-security", STRICT_TRANSPORT_SECURITY);
      }
      done();
    });
  },
  { name: "headers" },
);
