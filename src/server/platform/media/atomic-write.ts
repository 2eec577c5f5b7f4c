/** Writing a picture's file so that no reader ever sees half of it. */
import { randomUUID } from "node:crypto";
import { mkdir, rename, writeFile } from "node:fs/promises";
import { dirname } from "node:path";

/** Written beside its place, then moved there: a reader never sees half a file. */
export async function writeAtomically(path: string, data: Buffer): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const partial = `${path}.${randomUUID()}.part`;
  await writeFile(partial, data);
  await rename(partial, path);
}
