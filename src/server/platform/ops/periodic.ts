/**
 * Housekeeping that runs while the server does: once when it is ready (or,
 * for work that can wait, once it listens), then every `everyMs`. A failed run is logged and the next one tries
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
  /**
   * Whether the first run waits until the server listens, so a start
   * serves its first request without waiting on it; a server that never
   * listens (a test's, answering injected requests) then never runs it on
   * its own.
   */
  afterListening?: boolean;
}

export function runPeriodically(
  app: FastifyInstance,
  { what, everyMs, run, afterListening }: Periodic,
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
  const begin = async () => {
    void once();
    timer = setInterval(once, everyMs).unref();
  };
  if (afterListening) app.addHook("onListen", begin);
  else app.addHook("onReady", begin);
  app.addHook("onClose", async () => {
    clearInterval(timer);
    await running;
  });
}
