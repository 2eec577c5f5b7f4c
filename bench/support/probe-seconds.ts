/** Reads what bench/support/server-probe.mjs wrote: one line per second of the server's life. */
import { existsSync, readFileSync } from "node:fs";

export interface ProbeSecond {
  /** Date.now() at the end of the second. */
  at: number;
  loopMaxMs: number;
  gcMaxMs: number;
}

export function probeSeconds(file: string): ProbeSecond[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as ProbeSecond);
}
