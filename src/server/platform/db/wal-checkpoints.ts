/**
 * The server's SQLite checkpoints, off the thread that answers visitors.
 *
 * In WAL mode a commit appends to the write-ahead log, and SQLite's own
 * checkpoint (after a commit that leaves more than 1,000 pages in the log)
 * copies the log into the database file and syncs it, synchronously, on
 * the connection that committed: the server's only one. After a large
 * commit (a 40 MB list imported) that held every visitor for a few hundred
 * milliseconds. So the server turns its connection's automatic checkpoint
 * off, and a worker thread with a connection of its own checkpoints every
 * CHECKPOINT_EVERY_MS instead (ADR 057). A commit's own durability is
 * untouched: the log is synced at every commit, as before.
 *
 * Should the worker fail, the server's connection checkpoints for itself
 * again, and says so: the log must never grow without end.
 */
import type { FastifyBaseLogger } from "fastify";
import { sql } from "kysely";
import { type OffThread, offThread, siblingModule } from "../ops/off-thread.ts";
import { PollingWorker } from "../ops/polling-worker.ts";
import type { DatabaseHandle } from "./connection.ts";
import type { CheckpointResult } from "./wal-checkpoint-worker.ts";

/** How often the worker checkpoints: the log holds at most about this long's commits. */
export const CHECKPOINT_EVERY_MS = 1_000;

/** SQLite's own threshold, in pages, which the server's connection goes back to should the worker fail. */
const SQLITE_AUTOCHECKPOINT_PAGES = 1_000;

export const CHECKPOINTS_BACK_HOME_MESSAGE =
  "SQLite checkpoints could not run on their worker thread; the server's connection runs them again, and a large commit holds visitors while it does";

export class WalCheckpoints extends PollingWorker {
  private readonly work: OffThread<string, CheckpointResult>;

  private constructor(
    private readonly database: DatabaseHandle,
    private readonly file: string,
    private readonly log: FastifyBaseLogger,
    private readonly everyMs: number,
  ) {
    super();
    this.work = offThread(siblingModule(import.meta.url, "wal-checkpoint-worker"), {
      what: "a SQLite checkpoint",
      timeoutMs: 60_000,
      maxHeapMb: 32,
      log,
    });
  }

  /**
   * Takes the checkpoints of the SQLite file `file` (the database `database`
   * opened) off its connection; call start() to begin the rounds.
   */
  static async takeOver(
    database: DatabaseHandle,
    file: string,
    log: FastifyBaseLogger,
    everyMs = CHECKPOINT_EVERY_MS,
  ): Promise<WalCheckpoints> {
    await sql`pragma wal_autocheckpoint = 0`.execute(database.db);
    return new WalCheckpoints(database, file, log, everyMs);
  }

  /** One checkpoint now, on the worker. */
  checkpoint(): Promise<CheckpointResult> {
    return this.work.run(this.file);
  }

  override async stop(): Promise<void> {
    await super.stop();
    await this.work.close();
  }

  protected async sleepTime(): Promise<number> {
    return this.everyMs;
  }

  protected async round(): Promise<void> {
    try {
      await this.checkpoint();
    } catch (error) {
      // No further rounds: the connection checkpoints for itself from now on.
      this.stopped = true;
      this.log.error({ err: error }, CHECKPOINTS_BACK_HOME_MESSAGE);
      try {
        await sql`pragma wal_autocheckpoint = ${sql.lit(SQLITE_AUTOCHECKPOINT_PAGES)}`.execute(
          this.database.db,
        );
      } catch (restoring) {
        this.log.error({ err: restoring }, "SQLite's own checkpoints could not be turned back on");
      }
    }
  }
}
