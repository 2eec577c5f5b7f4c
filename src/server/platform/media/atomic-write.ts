/** Writing a picture's file so that no reader ever sees half of it. */
import { randomUUID } from "node:crypto";
import { mkdir, rename, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { OWNER_ONLY_FILE, OWNER_ONLY_FOLDER } from "../security/owner-only.ts";

/** Written beside its place, then moved there: a reader never sees half a file. */
export async function writeAtomically(path: string, data: Buffer): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: OWNER_ONLY_FOLDER });
  const partial = `${path}.${randomUUID()}.part`;
  await writeFile(partial, data, { mode: OWNER_ONLY_FILE });
  await rename(partial, path);
}
