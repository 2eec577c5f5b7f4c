/**
 * Security headers. The Content-Security-Policy allows scripts only from this
 * origin plus the inline scripts that the prerendered pages carry, by hash.
 */
import helmet from "@fastify/helmet";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";

export interface HeadersOptions {
  inlineScriptHashes: string[];
}

export default fp(
  async function headers(app: FastifyInstance, { inlineScriptHashes }: HeadersOptions) {
    await app.register(helmet, {
      contentSecurityPolicy: {
        directives: {
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
          upgradeInsecureRequests: null,
        },
      },
      crossOriginEmbedderPolicy: false,
    });
  },
  { name: "headers" },
);
