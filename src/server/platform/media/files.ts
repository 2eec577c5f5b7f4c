/**
 * Serves the uploaded pictures where the public pages look for pictures:
 * /images/pictures/<name>, /images/items/<name> and /images/insight/<name>.
 * The built site's own pictures have routes of their own
 * (platform/static/site.ts), which win; any other name in these folders is
 * looked up in MEDIA_DIR. Uploaded names are the hash of their content, so
 * they are cached for a year. The originals are never served.
 */
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";
import { IMAGE_FORMATS } from "../../../shared/admin/content.ts";
import { OWNER_ONLY_FOLDER, ownerOnlyFolder } from "../security/owner-only.ts";
import { ASSET_CACHE_CONTROL } from "../static/site.ts";

/**
 * The folders whose pictures are shown away from the site: a mail program
 * or a feed reader loads an issue's pictures from its own origin (webmail
 * runs in the reader's browser), which `Cross-Origin-Resource-Policy:
 * same-origin` would refuse. insight/ holds the pictures of issues; items/
 * holds those of issues written before issues had a folder of their own, so
 * the archive's older issues keep theirs. Every other answer stays
 * same-origin (platform/security/headers.ts).
 */
export const FOLDERS_SHOWN_AWAY: ReadonlySet<string> = new Set(["insight", "items"]);

export default async function mediaFiles(app: FastifyInstance, { root }: { root: string }) {
  const folders = new Set(Object.values(IMAGE_FORMATS).map((format) => format.folder));
  // The server reads the pictures itself: nobody else needs to.
  ownerOnlyFolder(root);
  for (const folder of folders) {
    const dir = join(root, folder);
    await mkdir(dir, { recursive: true, mode: OWNER_ONLY_FOLDER });
    const shownAway = FOLDERS_SHOWN_AWAY.has(folder);
    await app.register(fastifyStatic, {
      root: dir,
      prefix: `/images/${folder}/`,
      decorateReply: false,
      cacheControl: false,
      index: false,
      setHeaders: (res) => {
        res.setHeader("Cache-Control", ASSET_CACHE_CONTROL);
        if (shownAway) res.setHeader("Cross-Origin-Resource-Policy", "cross-origin");
      },
    });
  }
}
