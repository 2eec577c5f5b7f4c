/**
 * The import's reader on its worker thread (import-reader.ts starts it):
 * the file comes in chunks over a message port as the upload arrives, and
 * the rows judged go back over it in batches, so neither thread ever holds
 * a message the size of the file, and taking one in never holds up the
 * server's event loop for long.
 *
 * Over the port, in order: the server sends the reading's settings, then
 * each chunk, then null at the end of the file; the worker answers each
 * chunk with "read" once it is read (the server sends only a few ahead),
 * sends each batch of rows as it fills, and last either what the file
 * holds or why it is refused. A port closed by the server (the upload
 * failed) ends the reading.
 */
import { on } from "node:events";
import { setPriority } from "node:os";
import type { MessagePort } from "node:worker_threads";
import { Refusal } from "../../platform/refusal.ts";
import {
  FileReading,
  type FileSummary,
  type ReadingSettings,
  type RowBatch,
} from "./import-file.ts";

/**
 * The reader yields the processor to the thread that answers visitors: on a
 * box of two cores, a 40 MB file read at full speed beside them slows their
 * answers, while at this niceness it takes what they leave. On Linux a
 * thread's niceness is its own (elsewhere it would be the whole server's,
 * so it is left alone there).
 */
const READER_NICENESS = 10;
if (process.platform === "linux") setPriority(READER_NICENESS);

export type ToReader = ReadingSettings | Uint8Array | null;

export type FromReader =
  | { kind: "read" }
  | { kind: "rows"; batch: RowBatch }
  | { kind: "done"; summary: FileSummary }
  | { kind: "refused"; message: string };

export default async function readUpload(port: MessagePort): Promise<void> {
  const send = (message: FromReader) => port.postMessage(message);
  const closed = new AbortController();
  port.once("close", () => closed.abort());
  let reading: FileReading | undefined;
  try {
    for await (const [message] of on(port, "message", { signal: closed.signal })) {
      const received = message as ToReader;
      if (received === null) break;
      if (received instanceof Uint8Array) {
        reading?.push(received);
        send({ kind: "read" });
      } else {
        reading = new FileReading(received, (batch) => send({ kind: "rows", batch }));
      }
    }
    if (!reading) throw new Error("the reading's settings never came");
    send({ kind: "done", summary: reading.finish() });
  } catch (error) {
    if (closed.signal.aborted) return;
    if (!(error instanceof Refusal)) throw error;
    send({ kind: "refused", message: error.message });
  } finally {
    port.close();
  }
}
