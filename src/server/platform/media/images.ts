/**
 * An uploaded picture, made ready for the public pages: its type is read
 * from its bytes (never from its name), it is turned upright, fitted to the
 * size the pages show it at (cropped to a card's or a portrait's frame; an
 * issue's picture only shrunk, keeping its shape), and written as AVIF and
 * WebP without any of its metadata (no camera, place or author leaves the
 * firm); a picture meant for e-mail also gets a JPEG or PNG (mail-copy.ts).
 * The original is kept as it came, under originals/, and never served.
 *
 * Files are named by the hash of the original, so a name never changes its
 * content: the pages can cache them for a year.
 */
import { createHash } from "node:crypto";
import { join } from "node:path";
import sharp, { type Metadata, type ResizeOptions, type Sharp } from "sharp";
import {
  CONTENT_TEXTS,
  type FocalPoint,
  IMAGE_FORMATS,
  type ImageFit,
  type ImageKind,
} from "../../../shared/admin/content.ts";
import { writeAtomically } from "./atomic-write.ts";
import { encodeMailCopy, type MailFormat } from "./mail-copy.ts";

/** Larger pictures are refused before they are decoded (a small file can unpack to gigabytes). */
export const MAX_MEGAPIXELS = 50;

/**
 * A picture whose longer side is more than this many times its shorter side
 * is refused from its header: cropped to the page's frame it would keep a
 * sliver, and covering the frame with a strip of a few pixels makes the
 * resize build a canvas of hundreds of megabytes; shrunk to fit inside an
 * issue's frame it would be a line too thin to read.
 */
export const MAX_ASPECT_RATIO = 5;

/**
 * A picture that must be enlarged more than this to fill its frame is
 * refused as too small. Only a cropped picture is ever enlarged: one fitted
 * inside its frame keeps its own size when it is smaller.
 */
export const MAX_UPSCALE = 4;

/** How sharp resizes for each fit: a crop around what draws the eye, or a shrink that keeps every edge. */
const RESIZE: Record<ImageFit, ResizeOptions> = {
  cover: { fit: "cover", position: sharp.strategy.attention },
  inside: { fit: "inside", withoutEnlargement: true },
};

/**
 * Fills the frame at the editor's focal point: scaled to cover it, then the
 * frame's window cut as CSS's `object-position` places it (the point p%
 * across the picture sits p% across the frame), so the console's preview of
 * the crop is the crop.
 */
function coverAround(
  picture: Sharp,
  { width, height }: { width: number; height: number },
  frame: { width: number; height: number },
  focus: FocalPoint,
): Sharp {
  const scale = Math.max(frame.width / width, frame.height / height);
  const scaled = {
    width: Math.max(frame.width, Math.round(width * scale)),
    height: Math.max(frame.height, Math.round(height * scale)),
  };
  return picture.resize(scaled.width, scaled.height, { fit: "fill" }).extract({
    left: Math.round(((scaled.width - frame.width) * focus.x) / 100),
    top: Math.round(((scaled.height - frame.height) * focus.y) / 100),
    width: frame.width,
    height: frame.height,
  });
}

/** The kinds an e-mail shows, which therefore get a copy every mail program can show. */
const KINDS_IN_MAIL: ReadonlySet<ImageKind> = new Set(["issue"]);

export const ORIGINALS_FOLDER = "originals";

/** sharp's name of a format we accept, and the type and extension we store it with. */
const ACCEPTED: Record<string, { type: string; extension: string }> = {
  jpeg: { type: "image/jpeg", extension: "jpg" },
  png: { type: "image/png", extension: "png" },
  webp: { type: "image/webp", extension: "webp" },
  avif: { type: "image/avif", extension: "avif" },
};

/** An upload the pipeline refuses; its status and message are for the client. */
export class ImageRefusal extends Error {
  constructor(
    readonly statusCode: 413 | 415 | 422,
    message: string,
  ) {
    super(message);
  }
}

export interface Variant {
  format: "avif" | "webp" | MailFormat;
  width: number;
  height: number;
  /** Relative to the media folder. */
  path: string;
}

export interface StoredImage {
  /** What a record stores: the WebP's name in its folder (the pages show the WebP). */
  imagePath: string;
  originalPath: string;
  contentType: string;
  width: number;
  height: number;
  bytes: number;
  variants: Variant[];
}

/** sharp reports AVIF as HEIF compressed with AV1; other HEIF (an iPhone's HEIC) is refused. */
function formatOf(metadata: Metadata): string | undefined {
  if (metadata.format === "heif") return metadata.compression === "av1" ? "avif" : undefined;
  return metadata.format;
}

async function readMetadata(bytes: Buffer): Promise<Metadata> {
  try {
    return await sharp(bytes).metadata();
  } catch {
    throw new ImageRefusal(415, CONTENT_TEXTS.unsupportedType);
  }
}

/**
 * Refuses, from the header alone, what cannot make a good picture at the
 * frame's size or would cost far more to process than its file suggests.
 * The sides are those after the EXIF orientation is applied.
 */
function checkProportions(metadata: Metadata, kind: ImageKind): void {
  const { width, height } = metadata.autoOrient;
  if (width * height > MAX_MEGAPIXELS * 1_000_000) {
    throw new ImageRefusal(413, CONTENT_TEXTS.tooManyPixels(MAX_MEGAPIXELS));
  }
  const frame = IMAGE_FORMATS[kind];
  if (Math.max(width, height) > MAX_ASPECT_RATIO * Math.min(width, height)) {
    throw new ImageRefusal(422, CONTENT_TEXTS.tooThin(width, height, MAX_ASPECT_RATIO, frame.fit));
  }
  if (frame.fit === "inside") return;
  if (Math.max(frame.width / width, frame.height / height) > MAX_UPSCALE) {
    const least = {
      width: Math.ceil(frame.width / MAX_UPSCALE),
      height: Math.ceil(frame.height / MAX_UPSCALE),
    };
    throw new ImageRefusal(422, CONTENT_TEXTS.tooSmall({ width, height }, frame, least));
  }
}

/** Every variant, made in memory: nothing is written unless every one succeeds. */
async function encodeVariants(
  bytes: Buffer,
  kind: ImageKind,
  name: string,
  { uprightSize, focus }: { uprightSize: { width: number; height: number }; focus?: FocalPoint },
): Promise<{ variant: Variant; data: Buffer }[]> {
  const { width, height, fit, folder } = IMAGE_FORMATS[kind];
  // rotate() with no angle applies the EXIF orientation; the output then
  // carries no metadata at all (sharp keeps none unless asked).
  const picture = sharp(bytes, { limitInputPixels: MAX_MEGAPIXELS * 1_000_000 }).rotate();
  const upright =
    focus && fit === "cover"
      ? coverAround(picture, uprightSize, { width, height }, focus)
      : picture.resize(width, height, RESIZE[fit]);
  const encoded: { variant: Variant; data: Buffer }[] = [];
  try {
    for (const format of ["avif", "webp"] as const) {
      // The sides are read from what was written: a picture fitted inside
      // its frame has its own.
      const { data, info } =
        format === "avif"
          ? await upright.clone().avif({ quality: 55 }).toBuffer({ resolveWithObject: true })
          : await upright.clone().webp({ quality: 80 }).toBuffer({ resolveWithObject: true });
      encoded.push({
        variant: {
          format,
          width: info.width,
          height: info.height,
          path: join(folder, `${name}.${format}`),
        },
        data,
      });
    }
    if (KINDS_IN_MAIL.has(kind)) {
      const copy = await encodeMailCopy(upright);
      encoded.push({
        variant: {
          format: copy.format,
          width: copy.width,
          height: copy.height,
          path: join(folder, `${name}.${copy.extension}`),
        },
        data: copy.data,
      });
    }
  } catch {
    // A header that promises pixels the file does not hold, or damaged data.
    throw new ImageRefusal(422, CONTENT_TEXTS.unreadableImage);
  }
  return encoded;
}

export async function storeImage(
  bytes: Buffer,
  kind: ImageKind,
  mediaDir: string,
  /** A cropped kind's focal point, chosen by the editor; without one, the crop keeps what draws the eye. */
  focus?: FocalPoint,
): Promise<StoredImage> {
  const metadata = await readMetadata(bytes);
  const accepted = ACCEPTED[formatOf(metadata) ?? ""];
  if (!accepted || !metadata.width || !metadata.height) {
    throw new ImageRefusal(415, CONTENT_TEXTS.unsupportedType);
  }
  checkProportions(metadata, kind);

  // The same file cropped at another point is another picture, with a name of its own.
  const cropped = focus && IMAGE_FORMATS[kind].fit === "cover" ? focus : undefined;
  const name = createHash("sha256")
    .update(bytes)
    .update(cropped ? `focus:${cropped.x},${cropped.y}` : "")
    .digest("hex")
    .slice(0, 24);
  const encoded = await encodeVariants(bytes, kind, name, {
    uprightSize: metadata.autoOrient,
    ...(cropped ? { focus: cropped } : {}),
  });
  const originalPath = join(ORIGINALS_FOLDER, `${name}.${accepted.extension}`);
  await writeAtomically(join(mediaDir, originalPath), bytes);
  for (const { variant, data } of encoded)
    await writeAtomically(join(mediaDir, variant.path), data);
  const variants = encoded.map(({ variant }) => variant);

  return {
    imagePath: `${name}.webp`,
    originalPath,
    contentType: accepted.type,
    width: metadata.width,
    height: metadata.height,
    bytes: bytes.length,
    variants,
  };
}
