/**
 * Whether work grows in step with its input: the processor time one input
 * takes against the time of one four times its size. Linear work takes
 * about four times as long; quadratic work sixteen times. Processor time,
 * not the clock, so a busy machine changes the figures little; the work
 * is repeated until the smaller input's share is long enough to time, and
 * the lowest of a few tries counts, so a garbage collection in one try
 * does not. It is the ratio that is judged, never a duration.
 */
import { expect } from "vitest";

/** Linear work stays well under this; quadratic work is twice above it. */
const MAX_RATIO = 8;
/** The smaller input's repetitions add up to at least this, so the timer's grain does not count. */
const MIN_BASE_MS = 25;
const TRIES = 3;

/**
 * The least processor time of a few tries of `repetitions` runs of each
 * of `works`, the works taking turns in each try, so that a stretch of
 * other work in the process (a collection, a timer of an earlier test)
 * weighs on all of them alike rather than on one. Work that answers with a
 * promise is awaited, and must need no I/O: the test awaits nothing else
 * meanwhile, so the time is this work's.
 */
async function cpuMs(works: (() => unknown)[], repetitions: number): Promise<number[]> {
  const best = works.map(() => Number.POSITIVE_INFINITY);
  for (let attempt = 0; attempt < TRIES; attempt += 1) {
    for (const [index, work] of works.entries()) {
      const start = process.cpuUsage();
      for (let round = 0; round < repetitions; round += 1) await work();
      const { user, system } = process.cpuUsage(start);
      best[index] = Math.min(best[index] ?? Number.POSITIVE_INFINITY, (user + system) / 1000);
    }
  }
  return best;
}

export interface Growth {
  size: number;
  /** How often each input was worked through per try. */
  repetitions: number;
  baseMs: number;
  ratio: number;
}

/**
 * Times `work(make(size))` against `work(make(4 × size))`; `make` builds
 * the input outside the timing. The size must be large enough for the
 * work's cost per character to show over its cost per call, and small
 * enough for both inputs to stay within the bounds the work enforces.
 */
export async function growthOf<Input>(
  make: (size: number) => Input,
  work: (input: Input) => unknown,
  size: number,
): Promise<Growth> {
  const small = make(size);
  let repetitions = 1;
  let [smallMs = 0] = await cpuMs([() => work(small)], repetitions);
  while (smallMs < MIN_BASE_MS) {
    repetitions *= 2;
    [smallMs = 0] = await cpuMs([() => work(small)], repetitions);
  }
  const large = make(size * 4);
  const [baseMs = 0, largeMs = 0] = await cpuMs(
    [() => work(small), () => work(large)],
    repetitions,
  );
  return { size, repetitions, baseMs, ratio: largeMs / baseMs };
}

/** Fails unless four times the input takes at most MAX_RATIO times the processor time. */
export async function expectLinear<Input>(
  make: (size: number) => Input,
  work: (input: Input) => unknown,
  size = 16_384,
): Promise<Growth> {
  const growth = await growthOf(make, work, size);
  expect(
    growth.ratio,
    `4× the input (${growth.size} → ${growth.size * 4}) took ${growth.ratio.toFixed(1)}× the time`,
  ).toBeLessThan(MAX_RATIO);
  return growth;
}
