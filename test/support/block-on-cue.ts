/**
 * Preloaded (`node --import`) into a server process by the overload test:
 * while the file named by BLOCK_ON_CUE exists, the event loop is kept busy in
 * slices of BUSY_SLICE_MS with a turn of the loop between them, as in a server
 * with more work than it can do: requests still arrive, each one late.
 */
import { existsSync } from "node:fs";

const BUSY_SLICE_MS = 100;

function busy(ms: number) {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // Spinning is the point: nothing else runs meanwhile.
  }
}

const cue = process.env.BLOCK_ON_CUE;
if (cue) {
  const timer = setInterval(() => {
    if (existsSync(cue)) busy(BUSY_SLICE_MS);
  }, 20);
  timer.unref();
}
