/**
 * Housekeeping that runs while the server does: once when it is ready,
 * then every `everyMs`. A failed run is logged and the next one tries
 * again; the timer never keeps the process alive, and closing waits for a
 * run under way, so it finishes before the database is closed.
 */
import type { FastifyInstance } from "fastify";

export interface Periodic {
  /** What the log says when a run fails. */
  what: string;
  everyMs: number;
  /** One run: a purge, say. Its result is ignored; only a failure is logged. */
  run(): Promise<unknown>;
  /** Whether the first run finishes before the server is ready (a start that purges first). */
  awaitFirst?: boolean;
}

export function runPeriodically(
  app: FastifyInstance,
  { what, everyMs, run, awaitFirst }: Periodic,
) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const once = () => {
    running = run().then(
      () => undefined,
      (error: unknown) => app.log.error({ err: error }, `${what} failed`),
    );
    return running;
  };
  app.addHook("onReady", async () => {
    const first = once();
    if (awaitFirst) await first;
    timer = setInterval(once, everyMs).unref();
  });
  app.addHook("onClose", async () => {
    clearInterval(timer);
    await running;
  });
}
