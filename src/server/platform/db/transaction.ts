/**
 * One transaction per change, however many functions it passes through.
 *
 * `inTransaction` opens a transaction, or joins the caller's when it is
 * given one, so a query function that needs a transaction of its own can
 * also run inside a larger write (a console change and its audit entry, an
 * account and its invitation). Work that must wait until the change is
 * visible to everyone (waking the mail sender, dropping cached pages) is
 * handed to `afterCommit`: it runs once the outermost transaction has
 * committed, and never if it rolled back.
 */
import type { Kysely, Transaction } from "kysely";
import type { Database } from "./schema.ts";

const committed = new WeakMap<Transaction<Database>, Array<() => void>>();

export async function inTransaction<T>(
  db: Kysely<Database>,
  work: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  if (db.isTransaction) return work(db as Transaction<Database>);
  const callbacks: Array<() => void> = [];
  const result = await db.transaction().execute((trx) => {
    committed.set(trx, callbacks);
    return work(trx);
  });
  for (const callback of callbacks) callback();
  return result;
}

/** Runs `callback` once the transaction `trx` belongs to has committed. */
export function afterCommit(trx: Transaction<Database>, callback: () => void): void {
  const callbacks = committed.get(trx);
  if (!callbacks) throw new Error("afterCommit needs a transaction opened by inTransaction");
  callbacks.push(callback);
}
