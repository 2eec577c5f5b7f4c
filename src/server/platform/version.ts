/**
 * The site's release: package.json's version, read once from the folder the
 * server and the commands start in (the checkout, the image's /app). /readyz,
 * the console's footer and the backups' manifests carry it.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

const UNKNOWN = "unknown";

let version: string | undefined;

export function siteVersion(): string {
  version ??= readVersion();
  return version;
}

function readVersion(): string {
  try {
    const text = readFileSync(join(process.cwd(), "package.json"), "utf8");
    const found = (JSON.parse(text) as { version?: unknown }).version;
    return typeof found === "string" ? found : UNKNOWN;
  } catch {
    return UNKNOWN;
  }
}
