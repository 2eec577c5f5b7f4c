/**
 * Text bodies are UTF-8, written once. A JSON or form body with bytes that
 * are not UTF-8, declared in another character set, or a form body whose
 * escapes do not decode to UTF-8 or that names a field twice is refused with
 * 400 (415 for the character set) before any parser reads it. Without this,
 * the parsers put U+FFFD in place of the bad bytes and the first of two
 * fields wins, so the server would store, unasked, something other than what
 * was sent. Pictures (multipart) are bytes, and pass untouched.
 */
import { Transform, type TransformCallback } from "node:stream";
import type { FastifyInstance, FastifyRequest, preParsingAsyncHookHandler } from "fastify";
import fp from "fastify-plugin";
import { withHookFirst } from "./route-hooks.ts";

export const NOT_UTF8_MESSAGE = "The request body is not valid UTF-8 text.";
export const CHARSET_MESSAGE = "Send the request body as UTF-8.";
export const REPEATED_FIELD_MESSAGE = (field: string) =>
  `The form names the field ${JSON.stringify(field)} more than once.`;

const FORM_TYPE = "application/x-www-form-urlencoded";

/** The media type of a text body this plugin checks, or null for any other body. */
function textTypeOf(request: FastifyRequest): string | null {
  const type = request.headers["content-type"]?.split(";")[0]?.trim().toLowerCase();
  if (!type) return null;
  return type === FORM_TYPE || type === "application/json" || type.endsWith("+json") ? type : null;
}

/** The character set the Content-Type declares, if any. */
function declaredCharset(request: FastifyRequest): string | undefined {
  return /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(request.headers["content-type"] ?? "")?.[1];
}

/** Why a form body is refused (an escape that is not UTF-8, a field twice), or null. */
function formProblem(body: string): string | null {
  const seen = new Set<string>();
  for (const pair of body.split("&")) {
    if (pair === "") continue;
    const [rawName = "", ...rawValue] = pair.split("=");
    let name: string;
    try {
      name = decodeURIComponent(rawName.replaceAll("+", " "));
      decodeURIComponent(rawValue.join("=").replaceAll("+", " "));
    } catch {
      return NOT_UTF8_MESSAGE;
    }
    if (seen.has(name)) return REPEATED_FIELD_MESSAGE(name);
    seen.add(name);
  }
  return null;
}

/** Passes the body on while checking it; fails the stream (so the request) with 400 at its first fault. */
function checkedBody(app: FastifyInstance, isForm: boolean): Transform {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let text = "";
  const refuse = (message: string) => app.httpErrors.badRequest(message);
  return new Transform({
    transform(chunk: Buffer, _encoding, done: TransformCallback) {
      try {
        const decoded = decoder.decode(chunk, { stream: true });
        // Only a form is checked whole; the body limit bounds what is kept.
        if (isForm) text += decoded;
      } catch {
        return done(refuse(NOT_UTF8_MESSAGE));
      }
      done(null, chunk);
    },
    flush(done: TransformCallback) {
      try {
        decoder.decode();
      } catch {
        return done(refuse(NOT_UTF8_MESSAGE));
      }
      const problem = isForm ? formProblem(text) : null;
      done(problem ? refuse(problem) : null);
    },
  });
}

/** Methods whose requests carry no body here: their routes skip the body checks altogether. */
const BODILESS = new Set(["GET", "HEAD", "OPTIONS"]);
const takesBody = (method: string | string[]) =>
  (Array.isArray(method) ? method : [method]).some((name) => !BODILESS.has(name));

export default fp(
  async function textBodies(app: FastifyInstance) {
    const checkText: preParsingAsyncHookHandler = async (request, _reply, payload) => {
      const type = textTypeOf(request);
      if (!type) return payload;
      const charset = declaredCharset(request);
      if (charset && !/^utf-?8$/i.test(charset)) {
        throw app.httpErrors.unsupportedMediaType(CHARSET_MESSAGE);
      }
      const checked = checkedBody(app, type === FORM_TYPE);
      payload.on("error", (error) => checked.destroy(error));
      return payload.pipe(checked);
    };
    // Registered before @fastify/compress: a route without a body gets
    // neither this check nor its decompression, so reading a page or a
    // list runs no body hook at all.
    app.addHook("onRoute", (route) => {
      if (!takesBody(route.method)) {
        route.decompress ??= false;
        return;
      }
      route.preParsing = withHookFirst(checkText, route.preParsing);
    });
  },
  { name: "text-bodies" },
);
