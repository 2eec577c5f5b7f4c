/**
 * Writes .br and .gz beside every compressible file of the built site, so the
 * server sends compressed bytes without compressing on each request.
 */
import { readdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";

const COMPRESSIBLE = /\.(html|js|mjs|css|svg|json|txt|xml|webmanifest)$/;
const MIN_BYTES = 1024;
const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

async function precompress(dir: string): Promise<number> {
  const entries = await readdir(dir, { recursive: true });
  const files = entries
    .filter((entry) => COMPRESSIBLE.test(entry))
    .map((entry) => join(dir, entry));
  let written = 0;
  for (const file of files) {
    if ((await stat(file)).size < MIN_BYTES) continue;
    const content = await readFile(file);
    await writeFile(
      `${file}.br`,
      await brotli(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
    );
    await writeFile(`${file}.gz`, await gz(content, { level: 9 }));
    written += 1;
  }
  return written;
}

const dirs = process.argv.length > 2 ? process.argv.slice(2) : ["build/client"];
for (const dir of dirs) console.log(`precompressed ${await precompress(dir)} files in ${dir}`);
