/**
 * The HTTP requests' durations as one Prometheus histogram, by route
 * pattern, method and status code, counted without prom-client's Histogram:
 * its observe() builds a label object and a sorted hash string on every call,
 * and this runs on every request. Here each route holds its series by status
 * code, found with one Map lookup on a number, and a request costs a bucket
 * search and three additions. The buckets are made cumulative only when
 * scraped.
 */

/** Seconds: a page from cache takes a few milliseconds, an upload or a CSV export seconds. */
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;

type Labels = { route: string; method: string; status_code: string };

/** One line of the exposition, in the shape prom-client's Registry writes out. */
interface Sample {
  metricName: string;
  labels: Labels & { le?: string };
  value: number;
}

class Series {
  /** Observations per bucket, not yet cumulative; the last slot is +Inf. */
  readonly counts = new Float64Array(BUCKETS.length + 1);
  sum = 0;
  count = 0;
  constructor(readonly labels: Labels) {}

  observe(seconds: number): void {
    let bucket = 0;
    while (bucket < BUCKETS.length && seconds > (BUCKETS[bucket] as number)) bucket += 1;
    this.counts[bucket] = (this.counts[bucket] as number) + 1;
    this.sum += seconds;
    this.count += 1;
  }
}

/** One route pattern's series, one per method and status code it has answered with. */
export class RouteDurations {
  readonly #byMethod = new Map<string, Map<number, Series>>();
  constructor(
    private readonly route: string,
    private readonly all: Series[],
  ) {}

  observe(method: string, statusCode: number, seconds: number): void {
    let byStatus = this.#byMethod.get(method);
    if (!byStatus) {
      byStatus = new Map();
      this.#byMethod.set(method, byStatus);
    }
    let series = byStatus.get(statusCode);
    if (!series) {
      series = new Series({ route: this.route, method, status_code: String(statusCode) });
      byStatus.set(statusCode, series);
      this.all.push(series);
    }
    series.observe(seconds);
  }
}

/** The histogram, registered in a prom-client Registry as a metric of its own. */
export class HttpDurations {
  readonly name = "site_http_request_duration_seconds";
  readonly help =
    'Time to answer an HTTP request, by route pattern (unknown paths: route="unmatched"; the built site\'s files: route="static"), method and status code.';
  readonly type = "histogram";
  readonly aggregator = "sum";
  readonly #series: Series[] = [];
  readonly #routes = new Map<string, RouteDurations>();

  /** The series of one route pattern; looked up once, when the route is added. */
  route(route: string): RouteDurations {
    let durations = this.#routes.get(route);
    if (!durations) {
      durations = new RouteDurations(route, this.#series);
      this.#routes.set(route, durations);
    }
    return durations;
  }

  /** What prom-client's Registry asks of a metric when scraped. */
  get() {
    const values: Sample[] = [];
    for (const series of this.#series) {
      let cumulative = 0;
      series.counts.forEach((count, bucket) => {
        cumulative += count;
        const le = bucket < BUCKETS.length ? String(BUCKETS[bucket]) : "+Inf";
        values.push({
          metricName: `${this.name}_bucket`,
          labels: { ...series.labels, le },
          value: cumulative,
        });
      });
      values.push({ metricName: `${this.name}_sum`, labels: series.labels, value: series.sum });
      values.push({ metricName: `${this.name}_count`, labels: series.labels, value: series.count });
    }
    return {
      name: this.name,
      help: this.help,
      type: this.type,
      aggregator: this.aggregator,
      values,
    };
  }
}
