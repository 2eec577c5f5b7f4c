/**
 * The bounce mailbox's worker (report-worker.ts) for the test of a message
 * that outlasts its time: a message carrying HANG_HEADER blocks this thread
 * for good, as a parser caught in a loop would; any other is read as ever.
 * A worker is a module loaded by its path, so this one wraps the feature's
 * own from here: the one file under test/ that biome.json lets reach past a
 * feature's index.ts.
 */
import readOffThread from "../../src/server/features/deliverability/report-worker.ts";

export const HANG_HEADER = "X-Test-Hang: forever";

export default function readOrHang(raw: Uint8Array) {
  if (Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).includes(HANG_HEADER)) {
    // Waits on a value no one will ever change.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
  }
  return readOffThread(raw);
}
