/**
 * Answers built once and sent many times: the bytes with their brotli and
 * gzip forms and a strong ETag, sent in the encoding the client prefers, or
 * 304 when it already has them. The rendered pages (features/pages/page-cache.ts) and
 * the API's content lists (features/pages/api.ts) are served this way, so a request
 * costs a lookup, not a render, a serialization or a compression.
 */
import { createHash } from "node:crypto";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import { Negotiator } from "@fastify/accept-negotiator";
import type { FastifyReply, FastifyRequest } from "fastify";

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

export type Encoding = "br" | "gzip" | "identity";

export interface EncodedBody {
  /** A strong validator of the bytes, without quotes or encoding suffix. */
  etag: string;
  bodies: Record<Encoding, Buffer>;
}

const encodings = new Negotiator<Encoding>({ supportedValues: ["br", "gzip", "identity"] });

export async function encodeBody(text: string): Promise<EncodedBody> {
  const identity = Buffer.from(text);
  const [br, gzip] = await Promise.all([
    brotli(identity, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
    gz(identity, { level: 9 }),
  ]);
  return {
    etag: createHash("sha256").update(identity).digest("base64url").slice(0, 27),
    bodies: { identity, br, gzip },
  };
}

function matchesEtag(request: FastifyRequest, etag: string): boolean {
  const given = request.headers["if-none-match"]?.split(",") ?? [];
  return given.some((value) => value.trim() === etag);
}

/** Sends `body` (its route must set `compress: false`); the caller sets the type and other headers. */
export function sendEncoded(
  request: FastifyRequest,
  reply: FastifyReply,
  body: EncodedBody,
  status = 200,
) {
  const encoding = encodings.negotiate(request.headers["accept-encoding"] ?? "") ?? "identity";
  const etag = `"${body.etag}${encoding === "identity" ? "" : `-${encoding}`}"`;
  reply.header("vary", "Accept-Encoding").header("etag", etag);
  // Only an answer that would be a success is "not modified" (RFC 9110,
  // 13.2.1): a 404 asked again stays a 404, and never reads as a page served.
  if (status < 300 && matchesEtag(request, etag)) return reply.code(304).send();
  if (encoding !== "identity") reply.header("content-encoding", encoding);
  return reply.code(status).send(body.bodies[encoding]);
}

/** Encoded answers by key, each built on its first request (concurrent ones share it) until clear(). */
export class EncodedCache<T extends EncodedBody = EncodedBody> {
  private readonly entries = new Map<string, Promise<T>>();

  get(key: string, build: () => Promise<T>): Promise<T> {
    let entry = this.entries.get(key);
    if (!entry) {
      entry = build();
      this.entries.set(key, entry);
      // A failed build is not kept: the next request tries again.
      entry.catch(() => this.entries.delete(key));
    }
    return entry;
  }

  clear(): void {
    this.entries.clear();
  }
}
