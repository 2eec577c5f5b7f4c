/**
 * Copies committed pages from SQLite's write-ahead log into the database
 * file, on a worker thread (wal-checkpoints.ts starts it). Its own
 * connection stays open between rounds; a PASSIVE checkpoint waits for no
 * reader or writer, so the server's connection is never held by it.
 */
import type SQLite from "better-sqlite3";
import { sqliteDriver } from "./sqlite-driver.ts";

export interface CheckpointResult {
  /** Whether a reader or writer kept the checkpoint from finishing (it copies what it can). */
  busy: boolean;
  /** Frames in the log, and how many of them are now in the database file. */
  frames: number;
  checkpointed: number;
}

const connections = new Map<string, SQLite.Database>();

function connectionTo(file: string): SQLite.Database {
  let connection = connections.get(file);
  if (!connection) {
    const SQLiteDatabase = sqliteDriver();
    connection = new SQLiteDatabase(file, { fileMustExist: true });
    // A round that meets a lock gives up at once and copies what it can; the next round goes on.
    connection.pragma("busy_timeout = 0");
    // Sync the database file after copying, as the server's own checkpoints did.
    connection.pragma("synchronous = FULL");
    connections.set(file, connection);
  }
  return connection;
}

export default function checkpoint(file: string): CheckpointResult {
  const [row] = connectionTo(file).pragma("wal_checkpoint(PASSIVE)") as {
    busy: number;
    log: number;
    checkpointed: number;
  }[];
  return {
    busy: (row?.busy ?? 0) !== 0,
    frames: row?.log ?? 0,
    checkpointed: row?.checkpointed ?? 0,
  };
}
