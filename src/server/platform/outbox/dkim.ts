/** The DKIM key every message is signed with, read from the file the configuration names. */
import { readFileSync } from "node:fs";
import type { Config } from "../config.ts";
import type { DkimKey } from "./transport.ts";

/**
 * The configured key (DKIM_DOMAIN, DKIM_SELECTOR, DKIM_PRIVATE_KEY_FILE), or
 * undefined without one. A key file that cannot be read stops the start,
 * named, rather than sending unsigned mail the firm thinks is signed.
 */
export function readDkimKey(
  config: Pick<Config, "DKIM_DOMAIN" | "DKIM_SELECTOR" | "DKIM_PRIVATE_KEY_FILE">,
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
  return { domainName: DKIM_DOMAIN, keySelector: DKIM_SELECTOR, privateKey };
}
