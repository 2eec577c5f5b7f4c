/**
 * The bounce mailbox's reading of one message, on a worker thread
 * (platform/ops/off-thread.ts): a message that is slow to parse, or grows
 * the heap, stops this thread alone, never the one that answers visitors.
 */
import { type DeliveryReport, readReport, UnreadableMessage } from "./reports.ts";

/** The report a message holds (null when it is none), or why it could not be read. */
export type ReadOutcome = { report: DeliveryReport | null } | { unreadable: string };

export default async function readOffThread(raw: Uint8Array): Promise<ReadOutcome> {
  try {
    return { report: await readReport(raw) };
  } catch (error) {
    // An error crosses to the caller's thread as a plain Error: what the
    // message did is said here, while its kind is still known.
    if (error instanceof UnreadableMessage) return { unreadable: error.message };
    throw error;
  }
}
