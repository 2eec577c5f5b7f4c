/**
 * Preloaded (`node --import`) into a server process by the shutdown tests:
 * once the file named by THROW_ON_CUE exists, it throws an error nobody
 * catches, as a bug in some callback would.
 */
import { existsSync } from "node:fs";

const cue = process.env.THROW_ON_CUE;
if (cue) {
  const timer = setInterval(() => {
    if (!existsSync(cue)) return;
    clearInterval(timer);
    throw new Error("deliberate uncaught error from the test");
  }, 20);
  timer.unref();
}
