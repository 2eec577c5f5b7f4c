/**
 * The copy of a picture that mail programs show. Classic Outlook for Windows
 * and other older programs show neither WebP nor AVIF, so a picture meant for
 * an e-mail also gets a JPEG, or a PNG where some of it is see-through (a JPEG
 * has no transparency: a chart on a clear ground would come out on black).
 * The copy sits beside the picture's other files, under the same name.
 */
import { stat } from "node:fs/promises";
import { join } from "node:path";
import sharp, { type Sharp } from "sharp";
import type { IMAGE_FORMATS } from "../../../shared/admin/content.ts";
import { writeAtomically } from "./atomic-write.ts";

export type MailFormat = "jpeg" | "png";

const EXTENSIONS: Record<MailFormat, string> = { jpeg: "jpg", png: "png" };

export interface EncodedMailCopy {
  format: MailFormat;
  extension: string;
  data: Buffer;
  width: number;
  height: number;
}

/** The mail copy of a picture as sharp is about to write it (turned, resized, whatever it holds). */
export async function encodeMailCopy(picture: Sharp): Promise<EncodedMailCopy> {
  const { isOpaque } = await picture.clone().stats();
  const { data, info } = isOpaque
    ? // Nothing shows through, so the alpha channel, if any, holds nothing: a white
      // ground only makes sure no encoder invents a black one.
      await picture
        .clone()
        .flatten({ background: { r: 255, g: 255, b: 255 } })
        .jpeg({ quality: 82, mozjpeg: true })
        .toBuffer({ resolveWithObject: true })
    : await picture.clone().png({ compressionLevel: 9 }).toBuffer({ resolveWithObject: true });
  const format: MailFormat = isOpaque ? "jpeg" : "png";
  return { format, extension: EXTENSIONS[format], data, width: info.width, height: info.height };
}

type Folder = (typeof IMAGE_FORMATS)[keyof typeof IMAGE_FORMATS]["folder"];

export interface StoredMailCopy {
  /** The copy's file name in its folder. */
  file: string;
  width: number;
  height: number;
}

/** A name the uploads give (the hash of the original): nothing that could leave the folder. */
const UPLOADED_NAME = /^[0-9a-f]{24}$/;

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    (found) => found.isFile(),
    () => false,
  );
}

/**
 * The mail copy of the uploaded picture `name` in `folder`, with its size.
 * A picture uploaded before pictures had mail copies has only its WebP and
 * AVIF: its copy is made now, once, from the WebP, the very picture the
 * archive page shows, so the e-mail and the page agree. Undefined when there
 * is no such picture.
 */
export async function findOrMakeMailCopy(
  mediaDir: string,
  folder: Folder,
  name: string,
): Promise<StoredMailCopy | undefined> {
  if (!UPLOADED_NAME.test(name)) return undefined;
  for (const extension of Object.values(EXTENSIONS)) {
    const file = `${name}.${extension}`;
    const path = join(mediaDir, folder, file);
    if (await exists(path)) {
      const { width, height } = await sharp(path).metadata();
      return { file, width, height };
    }
  }
  const webp = join(mediaDir, folder, `${name}.webp`);
  if (!(await exists(webp))) return undefined;
  const copy = await encodeMailCopy(sharp(webp));
  const file = `${name}.${copy.extension}`;
  await writeAtomically(join(mediaDir, folder, file), copy.data);
  return { file, width: copy.width, height: copy.height };
}
