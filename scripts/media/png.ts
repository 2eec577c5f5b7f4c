/**
 * Small PNG files from Chromium's screenshots, with Node alone: decode the
 * screenshot, reduce it to a palette of at most 256 colours (median cut, then
 * k-means), and write an indexed PNG, keeping whichever row filter and zlib
 * strategy gives the smallest file. Flat artwork (logos, type, solid fields)
 * loses nothing visible; its anti-aliased edges keep their own blends.
 */
import { constants, deflateSync, inflateSync } from "node:zlib";

export interface Rgba {
  width: number;
  height: number;
  /** width × height × 4 bytes, RGBA. */
  pixels: Uint8Array;
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** Decodes an 8-bit, non-interlaced RGB, RGBA or indexed PNG (Chromium's screenshots, and this file's own). */
export function decodePng(file: Buffer): Rgba {
  if (!file.subarray(0, 8).equals(SIGNATURE)) throw new Error("not a PNG");
  let offset = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  let palette: Buffer | null = null;
  let alphas: Buffer | null = null;
  const data: Buffer[] = [];
  while (offset < file.length) {
    const length = file.readUInt32BE(offset);
    const type = file.toString("latin1", offset + 4, offset + 8);
    const body = file.subarray(offset + 8, offset + 8 + length);
    if (type === "IHDR") {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      const [depth, colourType, , , interlace] = [body[8], body[9], body[10], body[11], body[12]];
      if (depth !== 8 || interlace !== 0 || ![2, 3, 6].includes(colourType ?? 0)) {
        throw new Error(`unsupported PNG: depth ${depth}, colour type ${colourType}`);
      }
      channels = colourType === 6 ? 4 : colourType === 2 ? 3 : 1;
    } else if (type === "PLTE") palette = body;
    else if (type === "tRNS") alphas = body;
    else if (type === "IDAT") data.push(body);
    else if (type === "IEND") break;
    offset += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(data));
  const stride = width * channels;
  const rows = new Uint8Array(height * stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const out = rows.subarray(y * stride, (y + 1) * stride);
    const prev = y > 0 ? rows.subarray((y - 1) * stride, y * stride) : null;
    for (let x = 0; x < stride; x++) {
      const a = x >= channels ? (out[x - channels] ?? 0) : 0;
      const b = prev ? (prev[x] ?? 0) : 0;
      const c = prev && x >= channels ? (prev[x - channels] ?? 0) : 0;
      const value = line[x] ?? 0;
      const predictor =
        filter === 0
          ? 0
          : filter === 1
            ? a
            : filter === 2
              ? b
              : filter === 3
                ? (a + b) >> 1
                : paeth(a, b, c);
      out[x] = (value + predictor) & 0xff;
    }
  }
  const pixels = new Uint8Array(width * height * 4);
  for (let i = 0, j = 0; i < width * height; i++, j += channels) {
    if (palette) {
      const index = rows[j] ?? 0;
      pixels[i * 4] = palette[index * 3] ?? 0;
      pixels[i * 4 + 1] = palette[index * 3 + 1] ?? 0;
      pixels[i * 4 + 2] = palette[index * 3 + 2] ?? 0;
      pixels[i * 4 + 3] = alphas?.[index] ?? 255;
      continue;
    }
    pixels[i * 4] = rows[j] ?? 0;
    pixels[i * 4 + 1] = rows[j + 1] ?? 0;
    pixels[i * 4 + 2] = rows[j + 2] ?? 0;
    pixels[i * 4 + 3] = channels === 4 ? (rows[j + 3] ?? 0) : 255;
  }
  return { width, height, pixels };
}

type Colour = [number, number, number, number];

interface Bucket {
  colours: { colour: Colour; count: number }[];
}

/** Channel weights for distances: the eye sees green best, and alpha edges matter. */
const WEIGHT: Colour = [2, 4, 1, 3];

function distance(a: Colour, b: Colour): number {
  let sum = 0;
  for (let i = 0; i < 4; i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    sum += (WEIGHT[i] ?? 1) * d * d;
  }
  return sum;
}

function mean(colours: { colour: Colour; count: number }[]): Colour {
  const sum: Colour = [0, 0, 0, 0];
  let total = 0;
  for (const { colour, count } of colours) {
    for (let i = 0; i < 4; i++) sum[i] = (sum[i] ?? 0) + (colour[i] ?? 0) * count;
    total += count;
  }
  return sum.map((value) => Math.round(value / Math.max(total, 1))) as Colour;
}

/** Median cut on the weighted histogram, splitting the bucket with the widest weighted range. */
function medianCut(histogram: { colour: Colour; count: number }[], size: number): Colour[] {
  const buckets: Bucket[] = [{ colours: histogram }];
  const spread = (bucket: Bucket) => {
    let best = { channel: 0, range: -1 };
    for (let channel = 0; channel < 4; channel++) {
      let min = 255;
      let max = 0;
      for (const { colour } of bucket.colours) {
        min = Math.min(min, colour[channel] ?? 0);
        max = Math.max(max, colour[channel] ?? 0);
      }
      const range = (max - min) * Math.sqrt(WEIGHT[channel] ?? 1);
      if (range > best.range) best = { channel, range };
    }
    return best;
  };
  while (buckets.length < size) {
    let pick = -1;
    let pickScore = 0;
    for (const [index, bucket] of buckets.entries()) {
      if (bucket.colours.length < 2) continue;
      const population = bucket.colours.reduce((sum, { count }) => sum + count, 0);
      const score = spread(bucket).range * Math.sqrt(population);
      if (score > pickScore) {
        pick = index;
        pickScore = score;
      }
    }
    if (pick < 0) break;
    const bucket = buckets[pick] as Bucket;
    const { channel } = spread(bucket);
    bucket.colours.sort((a, b) => (a.colour[channel] ?? 0) - (b.colour[channel] ?? 0));
    const population = bucket.colours.reduce((sum, { count }) => sum + count, 0);
    let seen = 0;
    let cut = 1;
    for (const [index, { count }] of bucket.colours.entries()) {
      seen += count;
      if (seen >= population / 2) {
        cut = Math.min(Math.max(index + 1, 1), bucket.colours.length - 1);
        break;
      }
    }
    buckets.splice(
      pick,
      1,
      { colours: bucket.colours.slice(0, cut) },
      { colours: bucket.colours.slice(cut) },
    );
  }
  return buckets.map((bucket) => mean(bucket.colours));
}

function nearest(palette: Colour[], colour: Colour): number {
  let best = 0;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const [index, entry] of palette.entries()) {
    const d = distance(entry, colour);
    if (d < bestDistance) {
      best = index;
      bestDistance = d;
      if (d === 0) break;
    }
  }
  return best;
}

export interface Indexed {
  width: number;
  height: number;
  palette: Colour[];
  indices: Uint8Array;
}

/** At most `size` colours; exact when the image has no more than that. */
export function quantize({ width, height, pixels }: Rgba, size = 256): Indexed {
  const counts = new Map<number, number>();
  const keyAt = (i: number) => {
    const alpha = pixels[i + 3] ?? 0;
    // Fully transparent pixels are all one colour.
    if (alpha === 0) return 0;
    return (
      (((pixels[i] ?? 0) << 24) |
        ((pixels[i + 1] ?? 0) << 16) |
        ((pixels[i + 2] ?? 0) << 8) |
        alpha) >>>
      0
    );
  };
  for (let i = 0; i < pixels.length; i += 4) {
    const key = keyAt(i);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const toColour = (key: number): Colour => [
    key >>> 24,
    (key >>> 16) & 0xff,
    (key >>> 8) & 0xff,
    key & 0xff,
  ];
  const histogram = [...counts].map(([key, count]) => ({ colour: toColour(key), count }));

  let palette: Colour[];
  if (histogram.length <= size) palette = histogram.map(({ colour }) => colour);
  else {
    palette = medianCut(histogram, size);
    // k-means: move each entry to the mean of the colours nearest to it.
    for (let round = 0; round < 6; round++) {
      const groups = palette.map(() => [] as { colour: Colour; count: number }[]);
      for (const entry of histogram) groups[nearest(palette, entry.colour)]?.push(entry);
      palette = groups.map((group, index) =>
        group.length > 0 ? mean(group) : (palette[index] as Colour),
      );
    }
  }
  // Opaque colours last (a short tRNS), the rest by lightness (neighbouring indices look alike).
  const lightness = ([r, g, b]: Colour) => 2 * r + 4 * g + b;
  palette.sort((a, b) => {
    const opaque = Number(a[3] === 255) - Number(b[3] === 255);
    return opaque !== 0 ? opaque : lightness(a) - lightness(b);
  });

  const lookup = new Map<number, number>();
  for (const key of counts.keys()) lookup.set(key, nearest(palette, toColour(key)));
  const indices = new Uint8Array(width * height);
  for (let p = 0; p < indices.length; p++) indices[p] = lookup.get(keyAt(p * 4)) ?? 0;
  return { width, height, palette, indices };
}

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, body: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(body.length, 0);
  head.write(type, 4, "latin1");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), body])), 0);
  return Buffer.concat([head, body, crc]);
}

const FILTERS = ["none", "sub", "up", "average", "paeth"] as const;
type Filter = (typeof FILTERS)[number] | "adaptive";

/** Each row filtered by `filter` (PNG filter types 0–4). */
function filterRow(
  filter: Exclude<Filter, "adaptive">,
  row: Uint8Array,
  prev: Uint8Array | null,
  bpp: number,
  out: Uint8Array,
): void {
  for (let x = 0; x < row.length; x++) {
    const a = x >= bpp ? (row[x - bpp] ?? 0) : 0;
    const b = prev ? (prev[x] ?? 0) : 0;
    const c = prev && x >= bpp ? (prev[x - bpp] ?? 0) : 0;
    const predictor =
      filter === "none"
        ? 0
        : filter === "sub"
          ? a
          : filter === "up"
            ? b
            : filter === "average"
              ? (a + b) >> 1
              : paeth(a, b, c);
    out[x] = ((row[x] ?? 0) - predictor) & 0xff;
  }
}

/**
 * Rows of packed indices (1, 2, 4 or 8 bits each), each behind its filter
 * byte; "adaptive" picks per row the filter with the smallest sum of
 * absolute (signed) differences.
 */
function scanlines(image: Indexed, depth: number, filter: Filter): Buffer {
  const { width, height, indices } = image;
  const stride = Math.ceil((width * depth) / 8);
  const packed = new Uint8Array(height * stride);
  const perByte = 8 / depth;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const value = indices[y * width + x] ?? 0;
      const at = y * stride + Math.floor(x / perByte);
      const shift = 8 - depth * ((x % perByte) + 1);
      packed[at] = (packed[at] ?? 0) | (value << shift);
    }
  }
  const out = Buffer.alloc(height * (stride + 1));
  const trial = new Uint8Array(stride);
  for (let y = 0; y < height; y++) {
    const row = packed.subarray(y * stride, (y + 1) * stride);
    const prev = y > 0 ? packed.subarray((y - 1) * stride, y * stride) : null;
    const target = out.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    let chosen: Exclude<Filter, "adaptive"> = filter === "adaptive" ? "none" : filter;
    if (filter === "adaptive") {
      let bestCost = Number.POSITIVE_INFINITY;
      for (const candidate of FILTERS) {
        filterRow(candidate, row, prev, 1, trial);
        let cost = 0;
        for (const byte of trial) cost += byte < 128 ? byte : 256 - byte;
        if (cost < bestCost) {
          bestCost = cost;
          chosen = candidate;
        }
      }
    }
    filterRow(chosen, row, prev, 1, target);
    out[y * (stride + 1)] = FILTERS.indexOf(chosen);
  }
  return out;
}

/** An indexed PNG, the smallest of a few filter and zlib strategy choices. */
export function encodeIndexedPng(image: Indexed): Buffer {
  const { width, height, palette } = image;
  const depth = palette.length <= 2 ? 1 : palette.length <= 4 ? 2 : palette.length <= 16 ? 4 : 8;
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = depth;
  ihdr[9] = 3; // indexed colour
  const plte = Buffer.from(palette.flatMap((colour) => colour.slice(0, 3)));
  const alphas = palette.map(([, , , a]) => a);
  const lastTranslucent = alphas.findLastIndex((alpha) => alpha < 255);
  const trns = lastTranslucent >= 0 ? Buffer.from(alphas.slice(0, lastTranslucent + 1)) : null;

  let best: Buffer | null = null;
  for (const filter of [...FILTERS, "adaptive"] as const) {
    const raw = scanlines(image, depth, filter);
    for (const strategy of [constants.Z_DEFAULT_STRATEGY, constants.Z_FILTERED]) {
      const idat = deflateSync(raw, { level: 9, memLevel: 9, strategy });
      if (!best || idat.length < best.length) best = idat;
    }
  }
  return Buffer.concat([
    SIGNATURE,
    chunk("IHDR", ihdr),
    chunk("PLTE", plte),
    ...(trns ? [chunk("tRNS", trns)] : []),
    chunk("IDAT", best as Buffer),
    chunk("IEND", new Uint8Array(0)),
  ]);
}

/** A screenshot as the smallest indexed PNG of at most `colours` colours. */
export function optimisePng(screenshot: Buffer, colours = 256): Buffer {
  return encodeIndexedPng(quantize(decodePng(screenshot), colours));
}
