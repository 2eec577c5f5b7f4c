/**
 * Visits, told apart by the visitor's keyed hash (salts.ts). A visit begins
 * with a visitor's first view of the UTC day, one after 30 minutes without
 * any, or one that comes from another site or a tagged link; its entry page, source, UTM tags, device and browser are
 * taken then and given to every view of the visit.
 *
 * What a visitor's state remembers, until the end of its UTC day at most:
 * when it was last seen, the current visit's rows, and which rows it was
 * already counted in, as a visit (this visit) and as a visitor (today). It
 * lives in this process's memory, or in Redis when REDIS_URL is set so that
 * every instance sees the same visits (a key per hash, expiring at the end
 * of its day). Nothing of it is ever written to the database.
 */
import type { FastifyBaseLogger } from "fastify";
import type { Redis } from "ioredis";
import type { AudienceDimension } from "../../platform/db/schema.ts";
import { CONTACT_PATH, type Hit } from "./hits.ts";
import type { Tally } from "./tally.ts";

export const VISIT_GAP_MS = 30 * 60 * 1000;

/**
 * The most rows one visitor is remembered in per day (pages, sources).
 * Beyond it a row is taken as already counted: a visitor who reads more
 * than this many pages in a day adds views to the further ones, not visits
 * or visitors, and the memory a visitor takes stays bounded.
 */
const MAX_REMEMBERED = 256;

/** One row a visit counts in: its dimension and value, its key in the state's sets, and its tally slot. */
interface VisitRow {
  dimension: AudienceDimension;
  value: string;
  key: string;
  slot: string;
}

export interface VisitorState {
  /** The UTC day it belongs to; a new day starts afresh. */
  day: string;
  /** Epoch ms of the last counted view. */
  last: number;
  /** The current visit's rows (entry, channel, …). */
  visit: VisitRow[];
  /** Rows counted as a visit in the current visit. */
  visitRows: Set<string>;
  /** Rows counted as a visitor today. */
  dayRows: Set<string>;
}

/** A state as Redis keeps it: JSON, with the sets as arrays and the visit's rows as pairs. */
interface StoredState {
  day: string;
  last: number;
  visit: [AudienceDimension, string][];
  visitRows: string[];
  dayRows: string[];
}

function visitRow(
  tally: Tally,
  day: string,
  dimension: AudienceDimension,
  value: string,
): VisitRow {
  return {
    dimension,
    value,
    key: `${dimension}:${value}`,
    slot: tally.slot(day, dimension, value),
  };
}

/** Counts one view in one row: a visit and a visitor only the first time. */
function countRow(tally: Tally, state: VisitorState, key: string, slot: string): void {
  const { visitRows, dayRows } = state;
  const newInVisit = !visitRows.has(key) && visitRows.size < MAX_REMEMBERED;
  const newToday = !dayRows.has(key) && dayRows.size < MAX_REMEMBERED;
  if (newInVisit) visitRows.add(key);
  if (newToday) dayRows.add(key);
  tally.addAt(slot, 1, newInVisit ? 1 : 0, newToday ? 1 : 0);
}

/**
 * Counts one view into `tally` and gives the visitor's state after it.
 * `attributes` is asked only when the view begins a visit. A view in a
 * visit under way (the common case) builds no string but its page's keys:
 * the visit's rows carry theirs.
 */
export function countView(
  state: VisitorState | undefined,
  hit: Hit,
  attributes: () => [AudienceDimension, string][],
  tally: Tally,
): VisitorState {
  const sameDay = state !== undefined && state.day === hit.day;
  const begins = !sameDay || hit.arrives || hit.at - state.last >= VISIT_GAP_MS;
  const next: VisitorState = sameDay
    ? state
    : { day: hit.day, last: hit.at, visit: [], visitRows: new Set(), dayRows: new Set() };
  if (begins) {
    next.visit = attributes().map(([dimension, value]) =>
      visitRow(tally, hit.day, dimension, value),
    );
    next.visitRows = new Set();
  }
  next.last = hit.at;
  countRow(tally, next, "total:", tally.slot(hit.day, "total", ""));
  countRow(tally, next, `page:${hit.path}`, tally.slot(hit.day, "page", hit.path));
  for (const row of next.visit) countRow(tally, next, row.key, row.slot);
  if (hit.path === CONTACT_PATH) {
    countRow(tally, next, "funnel:contact", tally.slot(hit.day, "funnel", "contact"));
  }
  return next;
}

/** Where visitors' states are kept between their views. */
export interface VisitorStore {
  /** Counts a view of visitor `hash`; resolves when its state is kept. */
  count(hash: string, hit: Hit, attributes: () => [AudienceDimension, string][]): Promise<void>;
  /** Forgets every visitor of a day before `today` (memory only; Redis keys expire). */
  forgetBefore(today: string): void;
  close(): Promise<void>;
}

/** Milliseconds from `at` to the end of its UTC day. */
export function untilEndOfDay(at: number): number {
  const day = 24 * 60 * 60 * 1000;
  return day - (at % day);
}

/**
 * The most visitors one process remembers. A flood of made-up user agents
 * would otherwise grow the Map without end; past this, the visitor seen
 * least recently is forgotten, and counts as new if it comes back.
 */
export const MAX_VISITORS_IN_MEMORY = 200_000;

/** One process's visitors, in a Map: right for a site on one instance. */
export class MemoryVisitors implements VisitorStore {
  private readonly states = new Map<string, VisitorState>();

  constructor(
    private readonly tally: Tally,
    private readonly maxVisitors = MAX_VISITORS_IN_MEMORY,
  ) {}

  /** Synchronous, so a view is counted before its request's answer is even finished. */
  countNow(hash: string, hit: Hit, attributes: () => [AudienceDimension, string][]): void {
    const state = this.states.get(hash);
    // Deleted and set again, so the Map's order is that of the last view.
    if (state) this.states.delete(hash);
    this.states.set(hash, countView(state, hit, attributes, this.tally));
    if (this.states.size > this.maxVisitors) {
      const oldest = this.states.keys().next().value;
      if (oldest !== undefined) this.states.delete(oldest);
    }
  }

  async count(hash: string, hit: Hit, attributes: () => [AudienceDimension, string][]) {
    this.countNow(hash, hit, attributes);
  }

  forgetBefore(today: string): void {
    for (const [hash, state] of this.states) if (state.day < today) this.states.delete(hash);
  }

  get size(): number {
    return this.states.size;
  }

  async close() {}
}

/**
 * Visitors shared by every instance, in Redis: a key per visitor hash,
 * holding its state as JSON, expiring at the end of its UTC day. Read and
 * written back once per view, after the view's answer has gone. Two views
 * of one visitor landing on two instances within the same millisecond or
 * two may both find the older state, and count a row twice; that is the
 * price of not locking. When Redis cannot answer, the view is still counted
 * as a page view, without its visit (and the log says Redis is away).
 */
export class RedisVisitors implements VisitorStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly tally: Tally,
    private readonly log: FastifyBaseLogger,
  ) {}

  async count(hash: string, hit: Hit, attributes: () => [AudienceDimension, string][]) {
    const key = `${this.prefix}${hash}`;
    let state: VisitorState | undefined;
    try {
      const kept = await this.redis.get(key);
      if (kept) {
        const stored = JSON.parse(kept) as StoredState;
        state = {
          ...stored,
          visit: stored.visit.map(([dimension, value]) =>
            visitRow(this.tally, stored.day, dimension, value),
          ),
          visitRows: new Set(stored.visitRows),
          dayRows: new Set(stored.dayRows),
        };
      }
    } catch (error) {
      this.log.debug({ err: error }, "audience: Redis did not answer; a view counted alone");
      this.tally.add(hit.day, "total", "", { views: 1, visits: 0, visitors: 0 });
      this.tally.add(hit.day, "page", hit.path, { views: 1, visits: 0, visitors: 0 });
      return;
    }
    const next = countView(state, hit, attributes, this.tally);
    try {
      const stored: StoredState = {
        day: next.day,
        last: next.last,
        visit: next.visit.map((row) => [row.dimension, row.value]),
        visitRows: [...next.visitRows],
        dayRows: [...next.dayRows],
      };
      await this.redis.set(key, JSON.stringify(stored), "PX", untilEndOfDay(hit.at));
    } catch (error) {
      this.log.debug({ err: error }, "audience: Redis did not keep a visitor's state");
    }
  }

  forgetBefore(): void {}

  async close() {}
}
