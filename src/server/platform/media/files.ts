/**
 * Serves the uploaded pictures where the public pages look for pictures:
 * /images/pictures/<name> and /images/items/<name>. The built
 * site's own pictures have routes of their own (platform/static/site.ts), which win;
 * any other name in these folders is looked up in MEDIA_DIR. Uploaded names
 * are the hash of their content, so they are cached for a year. The
 * originals are never served.
 */
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";
import { IMAGE_FORMATS } from "../../../shared/admin/content.ts";
import { ASSET_CACHE_CONTROL } from "../static/site.ts";

export default async function mediaFiles(app: FastifyInstance, { root }: { root: string }) {
  const folders = new Set(Object.values(IMAGE_FORMATS).map((format) => format.folder));
  for (const folder of folders) {
    const dir = join(root, folder);
    await mkdir(dir, { recursive: true });
    await app.register(fastifyStatic, {
      root: dir,
      prefix: `/images/${folder}/`,
      decorateReply: false,
      cacheControl: false,
      index: false,
      setHeaders: (res) => res.setHeader("Cache-Control", ASSET_CACHE_CONTROL),
    });
  }
}
