/**
 * Security headers. The Content-Security-Policy allows scripts only from this
 * origin; a page adds its own inline scripts by hash (pages/plugin.ts sends
 * contentSecurityPolicy(hashes) with each page).
 */
import helmet from "@fastify/helmet";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";

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
    await app.register(helmet, {
      contentSecurityPolicy: {
        useDefaults: false,
        directives: directives([]),
      },
      crossOriginEmbedderPolicy: false,
    });
  },
  { name: "headers" },
);
