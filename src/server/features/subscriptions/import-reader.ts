/**
 * The import's file read off the request path: the upload streams, as it
 * arrives, to a worker thread (import-worker.ts) that parses and judges it,
 * while this thread goes on answering visitors. A reading that runs past
 * its time or outgrows its heap is stopped there (platform/ops/off-thread.ts),
 * so no file, however made, can stall or exhaust the server.
 *
 * The upload is sent on in pieces of at most CHUNK_BYTES, and only
 * CHUNKS_AHEAD of them before the worker says it has read one: a slow
 * reader slows the upload rather than filling memory. The rows come back in
 * batches (import-file.ts, BATCH_ROWS). Once the reader refuses the file,
 * the rest of the upload is read and dropped, so the importer gets the
 * answer rather than a cut connection.
 */
import { MessageChannel } from "node:worker_threads";
import type { FastifyBaseLogger } from "fastify";
import { Piscina } from "piscina";
import type { RowReport } from "../../../shared/admin/subscriber-import.ts";
import { offThread, siblingModule } from "../../platform/ops/off-thread.ts";
import { Refusal } from "../../platform/refusal.ts";
import type { Candidate, FileRead, ReadingSettings } from "./import-file.ts";
import type { FromReader, ToReader } from "./import-worker.ts";

const CHUNK_BYTES = 64 * 1024;
const CHUNKS_AHEAD = 4;

/**
 * The time a reading may take, from the upload's first byte to the last
 * row judged: a 40 MB file takes a few seconds to read, and its upload at a
 * slow 1 MB/s under a minute.
 */
const READ_TIMEOUT_MS = 120_000;
/**
 * The reader's heap: it keeps the addresses met so far (200,000 at most)
 * and a batch of rows, some 40 MB for the largest file; the rest is room.
 */
const READER_HEAP_MB = 128;

export interface UploadReader {
  /** Reads `upload`, or throws a Refusal saying why the file is refused. */
  read(upload: AsyncIterable<Uint8Array>, settings: ReadingSettings): Promise<FileRead>;
  close(): Promise<void>;
}

type Answer = Extract<FromReader, { kind: "done" | "refused" }>;

export function uploadReader(log: Pick<FastifyBaseLogger, "error">): UploadReader {
  const worker = offThread<ReturnType<typeof Piscina.move>, void>(
    siblingModule(import.meta.url, "import-worker"),
    {
      what: "reading an import's file",
      timeoutMs: READ_TIMEOUT_MS,
      maxHeapMb: READER_HEAP_MB,
      log,
    },
  );

  async function read(
    upload: AsyncIterable<Uint8Array>,
    settings: ReadingSettings,
  ): Promise<FileRead> {
    const { port1: port, port2 } = new MessageChannel();
    const send = (message: ToReader, transfer: ArrayBuffer[] = []) =>
      port.postMessage(message, transfer);
    const candidates: Candidate[] = [];
    const reports: RowReport[] = [];
    let ahead = 0;
    let answer: Answer | undefined;
    let over = false;
    let wake = () => {};
    const answered = new Promise<Answer>((resolve) => {
      port.on("message", (message: FromReader) => {
        if (message.kind === "read") ahead -= 1;
        else if (message.kind === "rows") {
          for (const row of message.batch.candidates) candidates.push(row);
          for (const row of message.batch.reports) reports.push(row);
        } else {
          answer = message;
          resolve(message);
        }
        wake();
      });
    });
    const task = worker.run(Piscina.move(port2));
    const stop = () => {
      over = true;
      wake();
    };
    answered.then(stop);
    task.then(stop, stop);

    send(settings);
    try {
      for await (const chunk of upload) {
        for (let start = 0; start < chunk.length && !over; start += CHUNK_BYTES) {
          const piece = chunk.subarray(start, start + CHUNK_BYTES);
          // A copy of its own, so the message carries this piece and not the buffer it is cut from.
          const own = new Uint8Array(piece.length);
          own.set(piece);
          send(own, [own.buffer]);
          ahead += 1;
          while (ahead >= CHUNKS_AHEAD && !over) {
            await new Promise<void>((resolve) => {
              wake = resolve;
            });
          }
        }
      }
    } catch (error) {
      // The upload failed (too large, or cut): unless the file was refused
      // already, the reading stops and the failure is the answer.
      if (answer?.kind !== "refused") {
        port.close();
        await task.catch(() => {});
        throw error;
      }
    }
    if (!over) send(null);
    const outcome = await Promise.race([answered, task.then(() => answered)]);
    port.close();
    if (outcome.kind === "refused") throw new Refusal(outcome.message);
    return { summary: outcome.summary, candidates, reports };
  }

  return { read, close: () => worker.close() };
}
