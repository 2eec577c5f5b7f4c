/**
 * Visitors who come at a steady pace whatever the server does: a request is
 * sent every 1/RATE of a second on a schedule, over as many keep-alive
 * connections as it takes, and each answer is timed from the moment its
 * request was due. A closed loop (autocannon, bench/support/load-generator.ts)
 * sends nothing while the server is stalled, so a stall of seconds holds up
 * only the few requests in flight and hardly moves the p99; here every
 * visitor who arrives during it waits, as they would.
 */
import http from "node:http";

export interface VisitorRecord {
  /** The time of each answered request (status 200), in milliseconds. */
  latencies: number[];
  /** Answers other than 200, and requests that failed. */
  errors: number;
  /**
   * How late the latest request was sent after it was due: this process's
   * own lag, which counts in the latencies (a loaded machine slows both).
   */
  sendLagMaxMs: number;
}

export interface PacedVisitors {
  /** Sends no more, waits for the requests in flight, and gives what was measured. */
  stop(): Promise<VisitorRecord>;
}

/** Longer than any answer of a healthy run; a request past it counts as an error. */
const REQUEST_TIMEOUT_MS = 30_000;

export function pacedVisitors(url: string, perSecond: number): PacedVisitors {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1024 });
  const record: VisitorRecord = { latencies: [], errors: 0, sendLagMaxMs: 0 };
  const spacingMs = 1000 / perSecond;
  const start = performance.now();
  let sent = 0;
  let inFlight = 0;
  let running = true;
  let timer: NodeJS.Timeout | undefined;
  let settled = () => {};

  function visit(due: number) {
    inFlight += 1;
    const done = (status: number) => {
      inFlight -= 1;
      if (status === 200) record.latencies.push(performance.now() - due);
      else record.errors += 1;
      if (inFlight === 0) settled();
    };
    const request = http.get(url, { agent }, (response) => {
      response.resume();
      response.on("end", () => done(response.statusCode ?? 0));
      response.on("error", () => done(0));
    });
    request.setTimeout(REQUEST_TIMEOUT_MS, () => request.destroy());
    request.on("error", () => done(0));
  }

  function sendDue() {
    const now = performance.now();
    for (let due = start + sent * spacingMs; due <= now; due = start + sent * spacingMs) {
      sent += 1;
      record.sendLagMaxMs = Math.max(record.sendLagMaxMs, now - due);
      visit(due);
    }
    if (running) timer = setTimeout(sendDue, start + sent * spacingMs - now);
  }
  sendDue();

  return {
    async stop() {
      running = false;
      clearTimeout(timer);
      if (inFlight > 0) await new Promise<void>((resolve) => (settled = resolve));
      agent.destroy();
      return record;
    },
  };
}
