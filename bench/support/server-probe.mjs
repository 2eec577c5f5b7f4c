/**
 * Loaded into the server under bench:load (`node --import`): once a second it
 * appends to the file named by LOAD_PROBE_FILE one JSON line with the longest
 * event-loop delay and the longest and total GC pause of that second, so a
 * slow request can be laid beside what the server was doing at that moment.
 * Plain JavaScript: the built server runs without tsx.
 */
import { appendFileSync } from "node:fs";
import { monitorEventLoopDelay, PerformanceObserver } from "node:perf_hooks";

const file = process.env.LOAD_PROBE_FILE;
if (file) {
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  let gcMaxMs = 0;
  let gcTotalMs = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      gcMaxMs = Math.max(gcMaxMs, entry.duration);
      gcTotalMs += entry.duration;
    }
  }).observe({ entryTypes: ["gc"] });

  setInterval(() => {
    const second = { at: Date.now(), loopMaxMs: loop.max / 1e6, gcMaxMs, gcTotalMs };
    appendFileSync(file, `${JSON.stringify(second)}\n`);
    loop.reset();
    gcMaxMs = 0;
    gcTotalMs = 0;
  }, 1000).unref();
}
