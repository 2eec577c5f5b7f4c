/**
 * Security headers, from helmet. The Content-Security-Policy allows scripts
 * only from this origin; a page adds its own inline scripts by hash
 * (pages/plugin.ts sends contentSecurityPolicy(hashes) with each page).
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

export default fp(
  async function headers(app: FastifyInstance) {
    const secure = helmet({
      contentSecurityPolicy: { useDefaults: false, directives: directives([]) },
      crossOriginEmbedderPolicy: false,
    });
    app.addHook("onRequest", (request, reply, done) => {
      secure(request.raw, reply.raw, (error?: unknown) => done(error as Error | undefined));
    });
  },
  { name: "headers" },
);
