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
 *
 * Before a view is counted, its address must be within what one address may
 * add (addresses.ts): in this process always, and in Redis too when set.
 */
import type { FastifyBaseLogger } from "fastify";
import type { Redis } from "ioredis";
import { LIVE_MINUTES } from "../../../shared/admin/audience.ts";
import type { AudienceDimension } from "../../platform/db/schema.ts";
import { type AddressLimits, MINUTE_MS } from "./addresses.ts";
import { CONTACT_PATH, type Hit } from "./hits.ts";
import type { ViewHashes } from "./salts.ts";
import type { Conversion, Tally } from "./tally.ts";

export const VISIT_GAP_MS = 30 * 60 * 1000;

const HOUR_MS = 60 * 60 * 1000;

/** The UTC hour of `at` (epoch ms), "00" to "23": its value in the hours' rows. */
export const hourOf = (at: number) =>
  String(Math.floor((at % (24 * HOUR_MS)) / HOUR_MS)).padStart(2, "0");

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
  /** Epoch ms of the last counted view, and of the current visit's first. */
  last: number;
  began: number;
  /** The current visit's rows (entry, channel, …). */
  visit: VisitRow[];
  /** Rows counted as a visit in the current visit. */
  visitRows: Set<string>;
  /** Rows counted as a visitor today. */
  dayRows: Set<string>;
  /** What the current visit has converted to so far (this process's visitors only; Redis decides its own). */
  converted: { conversion: boolean; funnelInquiry: boolean };
}

/** A state as Redis keeps it: JSON, with the sets as arrays and the visit's rows as pairs. */
interface StoredState {
  day: string;
  last: number;
  visit: [AudienceDimension, string][];
  visitRows: string[];
  dayRows: string[];
  /** Absent in a state kept before conversions were counted: its `last` stands in. */
  began?: number;
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
 * visit under way (the common case) builds no string but its page's and its
 * hour's keys: the visit's rows carry theirs. A visit counts in each hour it
 * has a view in, once.
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
    : {
        day: hit.day,
        last: hit.at,
        began: hit.at,
        visit: [],
        visitRows: new Set(),
        dayRows: new Set(),
        converted: { conversion: false, funnelInquiry: false },
      };
  if (begins) {
    next.visit = attributes().map(([dimension, value]) =>
      visitRow(tally, hit.day, dimension, value),
    );
    next.visitRows = new Set();
    next.began = hit.at;
    next.converted = { conversion: false, funnelInquiry: false };
  }
  next.last = hit.at;
  countRow(tally, next, "total:", tally.slot(hit.day, "total", ""));
  countRow(tally, next, `page:${hit.path}`, tally.slot(hit.day, "page", hit.path));
  const hour = hourOf(hit.at);
  countRow(tally, next, `hour:${hour}`, tally.slot(hit.day, "hour", hour));
  for (const row of next.visit) countRow(tally, next, row.key, row.slot);
  if (hit.path === CONTACT_PATH) {
    countRow(tally, next, "funnel:contact", tally.slot(hit.day, "funnel", "contact"));
  }
  return next;
}

/** What a visit can lead to: the built-in goals. */
export type Goal = "inquiry" | "subscription";

/** When a conversion happened: its UTC day and epoch ms. */
export interface ConversionAt {
  day: string;
  at: number;
}

/** Whether `state` has a visit under way at `at`: one counted today, with a view in the last VISIT_GAP_MS. */
export function visitUnderWay(
  state: VisitorState | undefined,
  { day, at }: ConversionAt,
): state is VisitorState {
  return state !== undefined && state.day === day && at - state.last < VISIT_GAP_MS;
}

/** Which of a conversion's counts are the visit's first: decided by the store that keeps the visit. */
export interface FirstInVisit {
  /** The visit's first conversion of any goal. */
  conversion: boolean;
  /** The visit's first inquiry after reaching the contact page: the funnel's last step. */
  funnelInquiry: boolean;
}

/**
 * Counts a conversion into the visit under way (visitUnderWay): a lead only
 * counts as one when a counted visit made it. It is added to the rows the
 * visit itself was counted in, so no row's conversions outnumber its
 * visits: the visit once (`conversions`), each lead (`inquiries`,
 * `subscriptions`). An inquiry from a visit that reached the contact page is
 * its funnel's last step, counted once, so each step stays within the one
 * before. A conversion is no view: it does not keep the visit going, and
 * the visitor's state is left as the views wrote it.
 */
export function countConversion(
  state: VisitorState,
  goal: Goal,
  day: string,
  first: FirstInVisit,
  tally: Tally,
): void {
  const counts: Conversion = {
    conversions: first.conversion ? 1 : 0,
    inquiries: goal === "inquiry" ? 1 : 0,
    subscriptions: goal === "subscription" ? 1 : 0,
  };
  const rows = [{ key: "total:", slot: tally.slot(day, "total", "") }, ...state.visit];
  for (const { key, slot } of rows) {
    if (state.visitRows.has(key)) tally.addCountsAt(slot, counts);
  }
  if (first.funnelInquiry) tally.add(day, "funnel", "inquiry", { views: 1, visits: 1 });
}

/** Whether an inquiry may be the funnel's last step: its visit reached the contact page. */
const reachedContact = (state: VisitorState, goal: Goal) =>
  goal === "inquiry" && state.visitRows.has("funnel:contact");

/**
 * Counts one view as a page view alone, with no visit and no visitor: a
 * view whose address has brought its fill of new visitors today, or one
 * whose visitor's state Redis could not give.
 */
function countPageViewAlone(tally: Tally, hit: Hit): void {
  tally.add(hit.day, "total", "", { views: 1, visits: 0, visitors: 0 });
  tally.add(hit.day, "page", hit.path, { views: 1, visits: 0, visitors: 0 });
  tally.add(hit.day, "hour", hourOf(hit.at), { views: 1, visits: 0, visitors: 0 });
}

/** Where visitors' states are kept between their views. */
export interface VisitorStore {
  /** Counts a view by the visitor and address `hashes` name; resolves when its state is kept. */
  count(
    hashes: ViewHashes,
    hit: Hit,
    attributes: () => [AudienceDimension, string][],
  ): Promise<void>;
  /** Counts a conversion into the visit under way of the visitor `hashes` name, if there is one. */
  convert(hashes: ViewHashes, goal: Goal, at: ConversionAt): Promise<void>;
  /** How many visitors had a counted view at `since` (epoch ms) or after: the live figure. */
  recentVisitors(since: number): Promise<number>;
  /** Forgets what this process holds of days before `today` (Redis keys expire by themselves). */
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

/** How long Redis keeps a visitor among the recent ones: the live figure's span. */
export const RECENT_KEPT_MS = LIVE_MINUTES * MINUTE_MS;

/** One process's visitors, in a Map: right for a site on one instance. */
export class MemoryVisitors implements VisitorStore {
  private readonly states = new Map<string, VisitorState>();

  constructor(
    private readonly tally: Tally,
    private readonly addresses: AddressLimits,
    private readonly maxVisitors = MAX_VISITORS_IN_MEMORY,
  ) {}

  /** Synchronous, so a view is counted before its request's answer is even finished. */
  countNow(
    { visitor, address }: ViewHashes,
    hit: Hit,
    attributes: () => [AudienceDimension, string][],
  ): void {
    if (!this.addresses.admitView(address, hit.day, hit.at)) return;
    const state = this.states.get(visitor);
    if (state?.day !== hit.day && !this.addresses.admitVisitor(address)) {
      countPageViewAlone(this.tally, hit);
      return;
    }
    // Deleted and set again, so the Map's order is that of the last view.
    if (state) this.states.delete(visitor);
    this.states.set(visitor, countView(state, hit, attributes, this.tally));
    if (this.states.size > this.maxVisitors) {
      const oldest = this.states.keys().next().value;
      if (oldest !== undefined) this.states.delete(oldest);
    }
  }

  async count(hashes: ViewHashes, hit: Hit, attributes: () => [AudienceDimension, string][]) {
    this.countNow(hashes, hit, attributes);
  }

  convertNow({ visitor }: ViewHashes, goal: Goal, at: ConversionAt): void {
    const state = this.states.get(visitor);
    if (!visitUnderWay(state, at)) return;
    const first = {
      conversion: !state.converted.conversion,
      funnelInquiry: reachedContact(state, goal) && !state.converted.funnelInquiry,
    };
    state.converted = {
      conversion: true,
      funnelInquiry: state.converted.funnelInquiry || first.funnelInquiry,
    };
    countConversion(state, goal, at.day, first, this.tally);
  }

  async convert(hashes: ViewHashes, goal: Goal, at: ConversionAt) {
    this.convertNow(hashes, goal, at);
  }

  async recentVisitors(since: number): Promise<number> {
    let recent = 0;
    for (const state of this.states.values()) if (state.last >= since) recent += 1;
    return recent;
  }

  forgetBefore(today: string): void {
    for (const [hash, state] of this.states) if (state.day < today) this.states.delete(hash);
    this.addresses.forgetBefore(today);
  }

  get size(): number {
    return this.states.size;
  }

  async close() {}
}

/**
 * Visitors shared by every instance, in Redis: a key per visitor hash,
 * holding its state as JSON, expiring at the end of its UTC day, and per
 * address hash a counter of the minute's views and one of the day's new
 * visitors. Read and written back once per view, after the view's answer
 * has gone. Two views of one visitor landing on two instances within the
 * same millisecond or two may both find the older state, and count a row
 * twice; that is the price of not locking. When Redis cannot answer, the
 * view is still counted as a page view, without its visit, within this
 * process's own number for its address (and the log says Redis is away).
 */
export class RedisVisitors implements VisitorStore {
  constructor(
    private readonly redis: Redis,
    /** The audience's prefix in Redis: keys `visitor:<hash>` and `address:<hash>:…` follow it. */
    private readonly prefix: string,
    private readonly tally: Tally,
    private readonly addresses: AddressLimits,
    private readonly log: FastifyBaseLogger,
  ) {}

  /**
   * Adds one to the counter `counter`, made to live `ttlMs` if new, and
   * gives the count after it; with `key`, reads the visitor state there in
   * the same round trip.
   */
  private async addOne(counter: string, ttlMs: number, key?: string) {
    const commands = this.redis.multi().set(counter, 0, "PX", ttlMs, "NX").incr(counter);
    const [, added, read] = (await (key ? commands.get(key) : commands).exec()) ?? [];
    if (!added || added[0] || (key && (!read || read[0]))) {
      throw added?.[0] ?? read?.[0] ?? new Error("Redis answered nothing");
    }
    return { count: Number(added[1]), kept: (read?.[1] ?? null) as string | null };
  }

  private stateOf(kept: string | null): VisitorState | undefined {
    if (!kept) return undefined;
    const stored = JSON.parse(kept) as StoredState;
    return {
      ...stored,
      visit: stored.visit.map(([dimension, value]) =>
        visitRow(this.tally, stored.day, dimension, value),
      ),
      began: stored.began ?? stored.last,
      visitRows: new Set(stored.visitRows),
      dayRows: new Set(stored.dayRows),
      // Redis decides a visit's firsts with keys of their own (convert).
      converted: { conversion: false, funnelInquiry: false },
    };
  }

  /** The sorted set of the visitors seen lately, each scored by its last view (epoch ms). */
  private get recent() {
    return `${this.prefix}recent`;
  }

  /**
   * Keeps the visitor's state, and its last view among the recent ones (the
   * set dropping those older than RECENT_KEPT_MS), in one round trip.
   */
  private async keep(visitor: string, state: VisitorState, at: number): Promise<void> {
    const stored: StoredState = {
      day: state.day,
      last: state.last,
      visit: state.visit.map((row) => [row.dimension, row.value]),
      visitRows: [...state.visitRows],
      dayRows: [...state.dayRows],
      began: state.began,
    };
    const answers = await this.redis
      .multi()
      .set(`${this.prefix}visitor:${visitor}`, JSON.stringify(stored), "PX", untilEndOfDay(at))
      .zadd(this.recent, at, visitor)
      .zremrangebyscore(this.recent, "-inf", at - RECENT_KEPT_MS)
      .pexpire(this.recent, RECENT_KEPT_MS)
      .exec();
    const failed = answers?.find(([error]) => error)?.[0];
    if (failed) throw failed;
  }

  async recentVisitors(since: number): Promise<number> {
    return this.redis.zcount(this.recent, since, "+inf");
  }

  async count(
    { visitor, address }: ViewHashes,
    hit: Hit,
    attributes: () => [AudienceDimension, string][],
  ) {
    if (!this.addresses.admitView(address, hit.day, hit.at)) return;
    const { viewsPerMinute, visitorsPerAddress } = this.addresses.settings;
    const addressKey = `${this.prefix}address:${address}`;
    const key = `${this.prefix}visitor:${visitor}`;
    let state: VisitorState | undefined;
    try {
      // Kept past its minute, so an instance whose clock is a little behind still finds it.
      const minute = Math.floor(hit.at / MINUTE_MS);
      const views = await this.addOne(`${addressKey}:${minute}`, 2 * MINUTE_MS, key);
      if (views.count > viewsPerMinute) return;
      state = this.stateOf(views.kept);
      // Each new visitor takes one of the address's day: an increment no two views share.
      if (state?.day !== hit.day) {
        const visitors = await this.addOne(`${addressKey}:visitors`, untilEndOfDay(hit.at));
        if (visitors.count > visitorsPerAddress) {
          countPageViewAlone(this.tally, hit);
          return;
        }
      }
    } catch (error) {
      this.log.debug({ err: error }, "audience: Redis did not answer; a view counted alone");
      countPageViewAlone(this.tally, hit);
      return;
    }
    const next = countView(state, hit, attributes, this.tally);
    try {
      await this.keep(visitor, next, hit.at);
    } catch (error) {
      this.log.debug({ err: error }, "audience: Redis did not keep a visitor's state");
    }
  }

  /**
   * Whether this is the first time `key` is set, for the rest of the day:
   * one statement, so of two instances converting one visit at once only
   * one counts it.
   */
  private async firstTime(key: string, at: number): Promise<boolean> {
    return (await this.redis.set(key, 1, "PX", untilEndOfDay(at), "NX")) === "OK";
  }

  /** When Redis cannot answer, the conversion is not counted, and the debug log says so. */
  async convert({ visitor }: ViewHashes, goal: Goal, at: ConversionAt) {
    const key = `${this.prefix}visitor:${visitor}`;
    try {
      const state = this.stateOf(await this.redis.get(key));
      if (!visitUnderWay(state, at)) return;
      const visit = `${this.prefix}converted:${visitor}:${state.began}`;
      const first = {
        conversion: await this.firstTime(visit, at.at),
        funnelInquiry:
          reachedContact(state, goal) && (await this.firstTime(`${visit}:inquiry`, at.at)),
      };
      countConversion(state, goal, at.day, first, this.tally);
    } catch (error) {
      this.log.debug({ err: error }, "audience: Redis did not answer; a conversion not counted");
    }
  }

  forgetBefore(today: string): void {
    this.addresses.forgetBefore(today);
  }

  async close() {}
}
