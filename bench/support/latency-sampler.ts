/**
 * Asks for one URL every INTERVAL, one request at a time, as the console's
 * progress view and a health check do, and notes each answer's latency and
 * status. A request slower than the interval delays the next one, so a stall
 * shows as one long sample rather than a pile of queued ones.
 */

export interface Sample {
  /** performance.now() when the request was sent. */
  at: number;
  ms: number;
  /** 0 when no answer came (connection refused or cut). */
  status: number;
}

export interface Sampler {
  /** Stops after the request in flight and returns every sample. */
  stop(): Promise<Sample[]>;
}

export function sampleEvery(
  url: string,
  intervalMs: number,
  { headers = {}, onBody }: { headers?: Record<string, string>; onBody?: (body: string) => void },
): Sampler {
  const samples: Sample[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const at = performance.now();
      try {
        const answer = await fetch(url, { headers });
        const body = await answer.text();
        samples.push({ at, ms: performance.now() - at, status: answer.status });
        if (answer.ok) onBody?.(body);
      } catch {
        samples.push({ at, ms: performance.now() - at, status: 0 });
      }
      const wait = at + intervalMs - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return samples;
    },
  };
}

/** The value below which `share` of the sorted values fall. */
export function percentile(sorted: ArrayLike<number>, share: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))] ?? 0;
}
