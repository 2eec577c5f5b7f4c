/**
 * Whether work grows in step with its input: the processor time one input
 * takes against the time of one four times its size. Linear work takes
 * about four times as long; quadratic work sixteen times. Processor time,
 * not the clock, so a busy machine changes the figures little, and the
 * lowest of a few tries of each, so a garbage collection in one try does
 * not count. It is the ratio that is judged, never a duration.
 */
import { expect } from "vitest";

/** Linear work stays well under this; quadratic work is twice above it. */
const MAX_RATIO = 8;
/** The smaller input grows until it takes this long, so the timer's grain does not count. */
const MIN_BASE_MS = 25;
const TRIES = 3;
const MAX_DOUBLINGS = 12;

function cpuMs(work: () => void): number {
  let best = Number.POSITIVE_INFINITY;
  for (let attempt = 0; attempt < TRIES; attempt += 1) {
    const start = process.cpuUsage();
    work();
    const { user, system } = process.cpuUsage(start);
    best = Math.min(best, (user + system) / 1000);
  }
  return best;
}

export interface Growth {
  /** The smaller input's size, after growing it to take long enough to time. */
  size: number;
  baseMs: number;
  ratio: number;
}

/**
 * Times `make(size)` run through `work` against `make(4 × size)`. `make`
 * builds the input outside the timing.
 */
export function growthOf<Input>(
  make: (size: number) => Input,
  work: (input: Input) => unknown,
  startSize: number,
): Growth {
  let size = startSize;
  let small = make(size);
  let baseMs = cpuMs(() => work(small));
  for (let doubling = 0; baseMs < MIN_BASE_MS && doubling < MAX_DOUBLINGS; doubling += 1) {
    size *= 2;
    small = make(size);
    baseMs = cpuMs(() => work(small));
  }
  const large = make(size * 4);
  return { size, baseMs, ratio: cpuMs(() => work(large)) / baseMs };
}

/** Fails unless four times the input takes at most MAX_RATIO times the processor time. */
export function expectLinear<Input>(
  make: (size: number) => Input,
  work: (input: Input) => unknown,
  startSize = 1024,
): Growth {
  return judged(growthOf(make, work, startSize));
}

/**
 * Processor time of asynchronous work that needs no I/O (a parser that
 * hands its steps on as promises): the test awaits nothing else meanwhile,
 * so the time between the call and its end is this work's.
 */
async function cpuMsAsync(work: () => Promise<unknown>): Promise<number> {
  let best = Number.POSITIVE_INFINITY;
  for (let attempt = 0; attempt < TRIES; attempt += 1) {
    const start = process.cpuUsage();
    await work();
    const { user, system } = process.cpuUsage(start);
    best = Math.min(best, (user + system) / 1000);
  }
  return best;
}

/** growthOf for work that answers with a promise. */
export async function growthOfAsync<Input>(
  make: (size: number) => Input,
  work: (input: Input) => Promise<unknown>,
  startSize: number,
): Promise<Growth> {
  let size = startSize;
  let small = make(size);
  let baseMs = await cpuMsAsync(() => work(small));
  for (let doubling = 0; baseMs < MIN_BASE_MS && doubling < MAX_DOUBLINGS; doubling += 1) {
    size *= 2;
    small = make(size);
    baseMs = await cpuMsAsync(() => work(small));
  }
  const large = make(size * 4);
  return { size, baseMs, ratio: (await cpuMsAsync(() => work(large))) / baseMs };
}

/** expectLinear for work that answers with a promise. */
export async function expectLinearAsync<Input>(
  make: (size: number) => Input,
  work: (input: Input) => Promise<unknown>,
  startSize = 1024,
): Promise<Growth> {
  return judged(await growthOfAsync(make, work, startSize));
}

function judged(growth: Growth): Growth {
  expect(
    growth.ratio,
    `4× the input (${growth.size} → ${growth.size * 4}) took ${growth.ratio.toFixed(1)}× the time`,
  ).toBeLessThan(MAX_RATIO);
  return growth;
}
