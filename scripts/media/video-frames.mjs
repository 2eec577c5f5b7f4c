// Renders the background-video frames as raw rgb48le to stdout.
//
//   node video-frames.mjs home|wedo WIDTH HEIGHT FPS SECONDS | ffmpeg -f rawvideo ...
//
// Every time-dependent term is periodic in the clip length, so the last frame
// flows straight back into the first one (seamless loop). Deterministic: no
// randomness other than a fixed-seed generator.

const [mode, W, H, FPS, SECS] = [
  process.argv[2],
  Number(process.argv[3]),
  Number(process.argv[4]),
  Number(process.argv[5]),
  Number(process.argv[6]),
];
if (!["home", "wedo"].includes(mode) || !W || !H || !FPS || !SECS) {
  console.error("usage: video-frames.mjs home|wedo WIDTH HEIGHT FPS SECONDS");
  process.exit(2);
}
const N = Math.round(FPS * SECS);
const TAU = Math.PI * 2;

// Small deterministic PRNG (mulberry32).
function rng(seed) {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const hex = (h) => [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16) / 255);
const ORANGE = hex("#ff7300");

// Linear-light accumulation buffer, converted to 8-bit sRGB-ish with a soft
// shoulder so bright overlaps never clip harshly.
const acc = new Float32Array(W * H * 3);
// Output is 16-bit rgb48le so the 8-bit YUV conversion (with dithering) can be
// left to ffmpeg's zscale: dark, smooth gradients would otherwise band.
// Lookup table indexed by sqrt(value), for speed with fine steps near black.
const LUT_N = 1 << 16;
const LUT_MAX = 2.5; // sqrt of the largest linear value handled
const LUT = new Uint16Array(LUT_N);
for (let j = 0; j < LUT_N; j++) {
  const v = ((j / (LUT_N - 1)) * LUT_MAX) ** 2;
  const s = v / (1 + v * 0.35); // soft shoulder
  LUT[j] = Math.round(Math.min(1, s ** (1 / 2.2)) * 65535);
}
const LUT_K = (LUT_N - 1) / LUT_MAX;
const out16 = new Uint16Array(W * H * 3); // little-endian on x86/arm hosts
const out = Buffer.from(out16.buffer);
const toWord = (v) => LUT[Math.min(LUT_N - 1, Math.round(Math.sqrt(v > 0 ? v : 0) * LUT_K))];
const lin = (c) => c.map((v) => v ** 2.2);

// Static background: diagonal gradient plus vignette (linear light).
function makeBackground(top, bottom, vignette) {
  const bg = new Float32Array(W * H * 3);
  const a = lin(hex(top));
  const b = lin(hex(bottom));
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const t = Math.min(1, Math.max(0, (x / W) * 0.35 + (y / H) * 0.65));
      const dx = (x / W - 0.5) * 1.6;
      const dy = (y / H - 0.5) * 1.6;
      const v = 1 - vignette * Math.min(1, dx * dx + dy * dy);
      const i = (y * W + x) * 3;
      for (let c = 0; c < 3; c++) bg[i + c] = (a[c] * (1 - t) + b[c] * t) * v;
    }
  }
  return bg;
}

// Additive soft (gaussian) blob, only over its bounding box.
function blob(cx, cy, r, col, k) {
  // 4.5 sigma: the cut-off must be invisible even after gamma on dark tones
  const x0 = Math.max(0, Math.floor(cx - 4.5 * r));
  const x1 = Math.min(W - 1, Math.ceil(cx + 4.5 * r));
  const y0 = Math.max(0, Math.floor(cy - 4.5 * r));
  const y1 = Math.min(H - 1, Math.ceil(cy + 4.5 * r));
  const inv = 1 / (2 * r * r);
  for (let y = y0; y <= y1; y++) {
    const dy2 = (y - cy) * (y - cy);
    for (let x = x0; x <= x1; x++) {
      const g = k * Math.exp(-((x - cx) * (x - cx) + dy2) * inv);
      const i = (y * W + x) * 3;
      acc[i] += col[0] * g;
      acc[i + 1] += col[1] * g;
      acc[i + 2] += col[2] * g;
    }
  }
}

// Additive bokeh disc: flat disc with a soft edge and a slightly brighter rim.
function disc(cx, cy, r, col, k) {
  const x0 = Math.max(0, Math.floor(cx - r - 3));
  const x1 = Math.min(W - 1, Math.ceil(cx + r + 3));
  const y0 = Math.max(0, Math.floor(cy - r - 3));
  const y1 = Math.min(H - 1, Math.ceil(cy + r + 3));
  const soft = Math.max(1.5, r * 0.18);
  for (let y = y0; y <= y1; y++) {
    for (let x = x0; x <= x1; x++) {
      const d = Math.hypot(x - cx, y - cy);
      const edge = Math.min(1, Math.max(0, (r - d) / soft + 0.5));
      if (edge <= 0) continue;
      const rim = 1 + 0.35 * Math.exp(-((r - d) * (r - d)) / (2 * soft * soft));
      const g = k * edge * rim;
      const i = (y * W + x) * 3;
      acc[i] += col[0] * g;
      acc[i + 1] += col[1] * g;
      acc[i + 2] += col[2] * g;
    }
  }
}

// ---------------------------------------------------------------- home
// Slowly drifting, defocused city-light bokeh in navy and slate, with one warm
// orange glow that swells and recedes once per loop, kept away from the centre
// so white text over the middle stays readable.
function homeScene() {
  const bg = makeBackground("#0e1424", "#07090f", 0.55);
  const S = W / 1280; // scale factor: designed at 1280x720
  const rand = rng(7);
  const glows = [
    // big soft colour fields (x, y, r, colour, strength, orbit ax, ay, harmonic, phase)
    { x: 260, y: 200, r: 260, c: "#1d3a66", k: 0.09, ax: 70, ay: 40, m: 1, p: 0.0 },
    { x: 1050, y: 180, r: 240, c: "#26345a", k: 0.08, ax: 60, ay: 50, m: 1, p: 2.1 },
    { x: 700, y: 640, r: 300, c: "#15324a", k: 0.08, ax: 90, ay: 30, m: 1, p: 4.0 },
    { x: 1120, y: 600, r: 200, c: "#ff7300", k: 0.1, ax: 50, ay: 30, m: 1, p: 1.2, pulse: 0.0 },
    { x: 140, y: 620, r: 150, c: "#ff7300", k: 0.05, ax: 40, ay: 25, m: 1, p: 3.3, pulse: Math.PI },
  ].map((g) => ({ ...g, col: lin(hex(g.c)) }));

  const palette = ["#6f86b8", "#8aa0c8", "#5a7aa8", "#9fb0cc", "#c9d4e6"];
  const discs = [];
  for (let i = 0; i < 26; i++) {
    const warm = i % 9 === 4;
    discs.push({
      x: rand() * 1280,
      y: rand() * 720,
      r: 10 + rand() ** 1.6 * 46,
      col: lin(hex(warm ? "#ff9a45" : palette[Math.floor(rand() * palette.length)])),
      k: (warm ? 0.16 : 0.06) + rand() * 0.06,
      ax: 20 + rand() * 60,
      ay: 10 + rand() * 30,
      m: 1 + Math.floor(rand() * 2), // orbit harmonic: 1 or 2 per loop
      p: rand() * TAU,
      fp: rand() * TAU, // fade phase: each light breathes in and out once per loop
    });
  }

  return (f) => {
    const ph = (TAU * f) / N;
    acc.set(bg);
    for (const g of glows) {
      let k = g.k;
      if (g.pulse !== undefined) k *= 0.25 + 0.75 * (0.5 + 0.5 * Math.sin(ph + g.pulse)) ** 2;
      blob(
        (g.x + g.ax * Math.sin(ph * g.m + g.p)) * S,
        (g.y + g.ay * Math.cos(ph * g.m + g.p * 1.3)) * S,
        g.r * S,
        g.col,
        k,
      );
    }
    for (const d of discs) {
      const fade = (0.5 + 0.5 * Math.sin(ph + d.fp)) ** 1.5;
      // dim the lights that pass behind the text band in the middle
      const cx = (d.x + d.ax * Math.sin(ph * d.m + d.p)) * S;
      const cy = (d.y + d.ay * Math.sin(ph * d.m + d.p + 1.1)) * S;
      const dx = (cx / W - 0.5) / 0.32;
      const dy = (cy / H - 0.5) / 0.22;
      const centre = 1 - 0.6 * Math.exp(-(dx * dx + dy * dy));
      disc(cx, cy, d.r * S, d.col, d.k * fade * centre);
    }
  };
}

// ---------------------------------------------------------------- wedo
// A ribbon of fine lines that flows like a slowly turning surface, slate blue
// fading into orange towards one end, over a dark charcoal background.
function wedoScene() {
  const bg = makeBackground("#10141c", "#06080c", 0.5);
  const S = H / 720;
  const LINES = 34;
  const slate = lin(hex("#7d93bd"));
  const pale = lin(hex("#c4cfe2"));
  const orange = lin(ORANGE);
  const widthPx = 1.15 * S;
  const glowPx = 7 * S;
  const inv = 1 / (2 * widthPx * widthPx);
  const invG = 1 / (2 * glowPx * glowPx);
  const reach = Math.ceil(4.5 * glowPx);
  const colCache = new Float32Array(3);

  return (f) => {
    const ph = (TAU * f) / N;
    acc.set(bg);
    for (let x = 0; x < W; x++) {
      const u = x / W; // 0..1 across
      // ribbon centre line and thickness vary along x and in time
      const centre =
        H * 0.52 +
        H * 0.13 * Math.sin(TAU * (u * 0.9) + ph) +
        H * 0.05 * Math.sin(TAU * (u * 1.7) - 2 * ph + 1.0);
      const twist = Math.sin(TAU * u * 0.75 - ph + 0.6); // -1..1: ribbon turning
      const spread = H * (0.012 + 0.0085 * (1 + twist));
      // colour across x: slate on the left, warming to orange on the right third
      const warm =
        Math.min(1, Math.max(0, (u - 0.55) / 0.4)) * (0.55 + 0.45 * Math.sin(ph + 0.5 + u * 2));
      for (let i = 0; i < LINES; i++) {
        const o = i - (LINES - 1) / 2;
        const wobble = H * 0.012 * Math.sin(TAU * u * 2.3 + ph * 2 + i * 0.35);
        const yc = centre + o * spread + wobble * (Math.abs(o) / LINES);
        // lines at the ribbon edges are fainter; middle lines carry the warm tint
        const edgeFade = 1 - (Math.abs(o) / (LINES / 2)) ** 2 * 0.65;
        const wi = warm * (0.35 + 0.65 * Math.exp(-(o * o) / 120));
        const bright = i % 6 === 0 ? 1.6 : 1;
        for (let c = 0; c < 3; c++) {
          colCache[c] = slate[c] * (1 - wi) + orange[c] * wi + (bright > 1 ? pale[c] * 0.15 : 0);
        }
        const kCore = 0.14 * edgeFade * bright * (0.75 + 0.25 * (1 + twist) * 0.5) * (1 + 0.9 * wi);
        const kGlow = 0.012 * edgeFade * (1 + 4 * wi);
        const y0 = Math.max(0, Math.floor(yc - reach));
        const y1 = Math.min(H - 1, Math.ceil(yc + reach));
        for (let y = y0; y <= y1; y++) {
          const d2 = (y - yc) * (y - yc);
          const g = kCore * Math.exp(-d2 * inv) + kGlow * Math.exp(-d2 * invG);
          const idx = (y * W + x) * 3;
          acc[idx] += colCache[0] * g;
          acc[idx + 1] += colCache[1] * g;
          acc[idx + 2] += colCache[2] * g;
        }
      }
    }
    // faint drifting orange haze, bottom right
    blob(W * (0.8 + 0.05 * Math.sin(ph)), H * (0.8 + 0.04 * Math.cos(ph)), 220 * S, orange, 0.05);
  };
}

const draw = mode === "home" ? homeScene() : wedoScene();

async function main() {
  for (let f = 0; f < N; f++) {
    draw(f);
    for (let i = 0; i < acc.length; i++) out16[i] = toWord(acc[i]);
    if (!process.stdout.write(Buffer.from(out))) {
      await new Promise((r) => process.stdout.once("drain", r));
    }
  }
}
main();
