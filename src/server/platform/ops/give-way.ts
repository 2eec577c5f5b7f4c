/**
 * Long work on the server's own thread (an import's statements: SQLite runs
 * them here, and a transaction's awaits alone never let the event loop
 * turn) done in small batches, giving way after each. One turn of the loop
 * is not enough: a request takes several turns to be answered, and each
 * turn would carry another batch. So after each batch the work pauses as
 * long as the thread was busy since the last pause: it takes at most half
 * the thread, and a request waits for one batch at most. Waiting on the
 * database (PostgreSQL) is not being busy, and costs no pause.
 */
import { performance } from "node:perf_hooks";
import { setTimeout as pause } from "node:timers/promises";

/** The shortest pause: time enough for the loop to answer what waits. */
const MIN_PAUSE_MS = 1;

/** A pause to await between batches of one piece of work. */
export function givingWay(): () => Promise<void> {
  let since = performance.eventLoopUtilization();
  return async () => {
    const { active } = performance.eventLoopUtilization(since);
    await pause(Math.max(MIN_PAUSE_MS, active));
    since = performance.eventLoopUtilization();
  };
}
