/**
 * Where the log goes: standard output, written without ever waiting for its
 * reader. A log shipper that stalls, or goes away, must not stop the server:
 * a write that waited for it would hold up every request, and pino's own
 * destination, flushing at exit, retried a line on a pipe whose reader had
 * gone for ever, so a stopping server never stopped.
 *
 * A pipe or socket is written through the event loop (non-blocking), with at
 * most MAX_BUFFERED_BYTES waiting. Once a line does not fit, lines are
 * dropped and counted, never retried, until the reader has taken everything
 * waiting; then `onDropped` hears how many, so the gap shows in the log. After
 * the reader has gone (EPIPE), every line is dropped. A file or a terminal
 * takes each line at once; a line it refuses is dropped the same way.
 */
import { fstatSync, writeSync } from "node:fs";
import { Socket } from "node:net";

const STDOUT = 1;

/** Lines waiting for a slow reader; beyond this they are dropped. */
const MAX_BUFFERED_BYTES = 1024 * 1024;

export interface LogDestination {
  write(line: string): void;
  /** Lines dropped since the start. */
  readonly dropped: number;
  /** Resolves once the lines waiting are written, or the reader has gone, or after `limitMs`. */
  flushed(limitMs: number): Promise<void>;
}

interface Drops {
  drop(): void;
  /** Lines go through again: reports those dropped since the last report. */
  resumed(): void;
  readonly total: number;
}

function countDrops(onDropped: (count: number) => void): Drops {
  let total = 0;
  let unreported = 0;
  return {
    drop() {
      total += 1;
      unreported += 1;
    },
    resumed() {
      if (unreported === 0) return;
      const count = unreported;
      unreported = 0;
      // Reported through the log itself, so not inside the write that found room.
      queueMicrotask(() => onDropped(count));
    },
    get total() {
      return total;
    },
  };
}

/** A pipe or a socket, written by the event loop; the reader's pace never blocks it. */
function streamDestination(fd: number, drops: Drops): LogDestination {
  const socket = new Socket({ fd, readable: false, writable: true });
  let gone = false;
  let dropping = false;
  // EPIPE or a reset: the reader has gone. Lines still waiting are lost (each write's callback counts its own).
  socket.on("error", () => {
    gone = true;
  });
  socket.on("drain", () => {
    if (!dropping) return;
    dropping = false;
    drops.resumed();
  });
  // Lines waiting must not keep a stopping process alive.
  socket.unref();
  return {
    write(line) {
      if (gone || dropping) return drops.drop();
      if (socket.writableLength + Buffer.byteLength(line) > MAX_BUFFERED_BYTES) {
        dropping = true;
        return drops.drop();
      }
      socket.write(line, (error) => {
        if (error) drops.drop();
      });
    },
    get dropped() {
      return drops.total;
    },
    flushed: (limitMs) =>
      new Promise<void>((resolve) => {
        if (gone || socket.writableLength === 0) return resolve();
        const timer = setTimeout(done, limitMs);
        socket.once("drain", done);
        socket.once("close", done);
        function done() {
          clearTimeout(timer);
          socket.off("drain", done);
          socket.off("close", done);
          resolve();
        }
      }),
  };
}

/** A file or a terminal: each line written at once; a refusal (a full disk, EAGAIN) drops it. */
function directDestination(fd: number, drops: Drops): LogDestination {
  return {
    write(line) {
      try {
        writeSync(fd, line);
      } catch {
        return drops.drop();
      }
      drops.resumed();
    },
    get dropped() {
      return drops.total;
    },
    flushed: async () => {},
  };
}

/** Standard output as the log's destination; `onDropped` hears of lines dropped once lines go through again. */
export function stdoutDestination(onDropped: (count: number) => void): LogDestination {
  const stat = fstatSync(STDOUT);
  const drops = countDrops(onDropped);
  return stat.isFIFO() || stat.isSocket()
    ? streamDestination(STDOUT, drops)
    : directDestination(STDOUT, drops);
}
