/** The DKIM key every message is signed with, read from the file the configuration names. */
import { readFileSync } from "node:fs";
import type { PlatformConfig } from "../server-settings.ts";
import type { DkimKey } from "./transport.ts";

/**
 * The headers the signature covers when the message has them: nodemailer's
 * own list (RFC 6376's suggestions, the list headers of RFC 2369 and 2919)
 * and List-Unsubscribe-Post, which nodemailer leaves out. RFC 8058 asks
 * that both one-click headers be signed, or a receiver may ignore them: a
 * forwarder could otherwise add the POST to a link that was never meant
 * for one.
 */
const DKIM_SIGNED_HEADERS = [
  "From",
  "Sender",
  "Reply-To",
  "Subject",
  "Date",
  "Message-ID",
  "To",
  "Cc",
  "MIME-Version",
  "Content-Type",
  "Content-Transfer-Encoding",
  "Content-ID",
  "Content-Description",
  "Resent-Date",
  "Resent-From",
  "Resent-Sender",
  "Resent-To",
  "Resent-Cc",
  "Resent-Message-ID",
  "In-Reply-To",
  "References",
  "List-Id",
  "List-Help",
  "List-Unsubscribe",
  "List-Unsubscribe-Post",
  "List-Subscribe",
  "List-Post",
  "List-Owner",
  "List-Archive",
] as const;

/**
 * The configured key (DKIM_DOMAIN, DKIM_SELECTOR, DKIM_PRIVATE_KEY_FILE), or
 * undefined without one. A key file that cannot be read stops the start,
 * named, rather than sending unsigned mail the firm thinks is signed.
 */
export function readDkimKey(
  config: Pick<PlatformConfig, "DKIM_DOMAIN" | "DKIM_SELECTOR" | "DKIM_PRIVATE_KEY_FILE">,
): DkimKey | undefined {
  const { DKIM_DOMAIN, DKIM_SELECTOR, DKIM_PRIVATE_KEY_FILE } = config;
  if (!DKIM_DOMAIN || !DKIM_SELECTOR || !DKIM_PRIVATE_KEY_FILE) return undefined;
  let privateKey: string;
  try {
    privateKey = readFileSync(DKIM_PRIVATE_KEY_FILE, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "unreadable";
    throw new Error(`DKIM_PRIVATE_KEY_FILE ${DKIM_PRIVATE_KEY_FILE} cannot be read (${code})`);
  }
  return {
    domainName: DKIM_DOMAIN,
    keySelector: DKIM_SELECTOR,
    privateKey,
    headerFieldNames: DKIM_SIGNED_HEADERS.join(":"),
  };
}
