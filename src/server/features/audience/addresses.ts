/**
 * What one client address may add to the figures (ADR 058): at most
 * AUDIENCE_VIEWS_PER_MINUTE page views counted a minute, and at most
 * AUDIENCE_VISITORS_PER_ADDRESS new visitors a UTC day; a further browser
 * at that address counts page views, but no visit and no visitor, so
 * sending many user agents from one address does not make many visitors.
 * An address is known here only by its keyed hash of the day (salts.ts).
 *
 * This process's counts live here; with REDIS_URL, every instance also
 * counts in Redis (visits.ts), so the numbers hold across instances. A
 * minute is a fixed minute of the clock: a burst across its end can have
 * up to twice the number counted in sixty seconds.
 */

export interface AddressLimitSettings {
  viewsPerMinute: number;
  visitorsPerAddress: number;
}

/** One address's counts: this minute's views and the day's new visitors. */
interface AddressCounts {
  day: string;
  minute: number;
  views: number;
  visitors: number;
}

export const MINUTE_MS = 60_000;

/**
 * The most addresses one process remembers. A flood from made-up IPv6
 * prefixes would otherwise grow the Map without end; past this, the address
 * seen least recently is forgotten, and starts afresh if it comes back.
 */
export const MAX_ADDRESSES_IN_MEMORY = 200_000;

export class AddressLimits {
  private readonly counts = new Map<string, AddressCounts>();

  constructor(
    readonly settings: AddressLimitSettings,
    private readonly maxAddresses = MAX_ADDRESSES_IN_MEMORY,
  ) {}

  /** Whether a view from `address` at `at` is within its minute's number; counts it if so. */
  admitView(address: string, day: string, at: number): boolean {
    const minute = Math.floor(at / MINUTE_MS);
    let counts = this.counts.get(address);
    // Deleted and set again, so the Map's order is that of the last view.
    if (counts) this.counts.delete(address);
    if (!counts || counts.day !== day) counts = { day, minute, views: 0, visitors: 0 };
    else if (counts.minute !== minute) {
      counts.minute = minute;
      counts.views = 0;
    }
    this.counts.set(address, counts);
    if (this.counts.size > this.maxAddresses) {
      const oldest = this.counts.keys().next().value;
      if (oldest !== undefined) this.counts.delete(oldest);
    }
    if (counts.views >= this.settings.viewsPerMinute) return false;
    counts.views += 1;
    return true;
  }

  /** Whether `address`, whose view was just admitted, may bring one more new visitor today; counts it if so. */
  admitVisitor(address: string): boolean {
    const counts = this.counts.get(address);
    if (!counts || counts.visitors >= this.settings.visitorsPerAddress) return false;
    counts.visitors += 1;
    return true;
  }

  /** Forgets the addresses last seen on a day before `today`. */
  forgetBefore(today: string): void {
    for (const [address, counts] of this.counts) {
      if (counts.day < today) this.counts.delete(address);
    }
  }

  get size(): number {
    return this.counts.size;
  }
}
