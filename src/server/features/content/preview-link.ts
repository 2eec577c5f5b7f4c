/**
 * A draft's preview link (ADR 044): the public page's own address with a
 * token naming the draft and when the link ends, signed with the server's
 * secret. The link alone opens nothing: the browser must also carry the
 * preview pass, a cookie the console sets when it asks for a link, which
 * names the console session (by its stored id, signed) and is honoured only
 * while that session is live. The session's own cookie stays on the
 * console's paths; the pass is good for previews and nothing else.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

/** The cookie that carries the preview pass, sent with every page of the site. */
export const PREVIEW_PASS_COOKIE = "console_preview";

/** Changing a purpose (or the secret) makes every link or pass signed before it stale. */
const LINK_PURPOSE = "content-preview-link:v1";
const PASS_PURPOSE = "content-preview-pass:v1";

const TOKEN_PATTERN = /^[0-9]{1,15}\.[0-9a-z]{1,12}\.[A-Za-z0-9_-]{43}$/;
const PASS_PATTERN = /^[0-9a-f]{64}\.[A-Za-z0-9_-]{43}$/;

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Signs and reads preview links and passes under keys of their own, derived from the server's secret. */
export function previewSigner(secret: string) {
  const keyOf = (purpose: string) => createHmac("sha256", secret).update(purpose).digest();
  const linkKey = keyOf(LINK_PURPOSE);
  const passKey = keyOf(PASS_PURPOSE);
  const signed = (key: Buffer, body: string) =>
    `${body}.${createHmac("sha256", key).update(body).digest("base64url")}`;
  const verified = (key: Buffer, token: string): string | null => {
    const cut = token.lastIndexOf(".");
    const body = token.slice(0, cut);
    return sameText(token, signed(key, body)) ? body : null;
  };

  return {
    /** The token of a link to draft `draftId`, good until `expiresAt` (epoch ms). */
    link(draftId: number, expiresAt: number): string {
      return signed(linkKey, `${draftId}.${expiresAt.toString(36)}`);
    },
    /** The draft a link's token names, if this server signed it and it has not expired by `now`. */
    draftOf(token: string, now: number): number | null {
      if (!TOKEN_PATTERN.test(token)) return null;
      const body = verified(linkKey, token);
      if (!body) return null;
      const [draftId, expiresAt] = body.split(".");
      if (Number.parseInt(expiresAt ?? "", 36) <= now) return null;
      return Number(draftId);
    },
    /** The pass of console session `sessionId` (the stored hash of its token). */
    pass(sessionId: string): string {
      return signed(passKey, sessionId);
    },
    /** The session a pass names, if this server signed it. */
    sessionOf(pass: string): string | null {
      if (!PASS_PATTERN.test(pass)) return null;
      return verified(passKey, pass);
    },
  };
}

export type PreviewSigner = ReturnType<typeof previewSigner>;
