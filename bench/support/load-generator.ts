/**
 * The load of bench:load: CONNECTIONS keep-alive connections, each asking one
 * request at a time (a closed loop, like autocannon), picked at random: 80 %
 * page and content reads, 15 % subscribes with an address never used before,
 * 5 % inquiries carrying a unique marker. Each connection takes its XSRF
 * cookie and header once from /api/v1/xsrf, as the site's script does.
 *
 * Besides latencies and statuses it keeps its own record of every write the
 * server acknowledged (201 → the address, 200 → the returned id and marker),
 * for bench/support/acknowledged.ts to look up in the database afterwards.
 * A connection refused or cut (the server killed) counts as a socket error;
 * the connection waits briefly and goes on with a new socket.
 */
import http from "node:http";
import type { Inquiry } from "../../src/shared/schemas.ts";
import { VALID_INQUIRY } from "../../test/support/fixtures.ts";

/** The five main pages and the content calls of the public API. */
const READS = [
  "/",
  "/wedo",
  "/weserve",
  "/weare",
  "/contact-us",
  "/api/v1/teams/",
  "/api/v1/items/?category=ethos",
  "/api/v1/items/?category=industries",
  "/api/v1/items/?category=techneeds",
  "/api/v1/items/?category=capabilities",
];
const SUBSCRIBE_SHARE = 0.15;
const INQUIRY_SHARE = 0.05;
/** After a socket error, so a connection to a dead server does not spin. */
const RETRY_PAUSE_MS = 50;
/** Nothing in a healthy run comes near it; a hung request must not hang the bench. */
const REQUEST_TIMEOUT_MS = 30_000;
/** Requests slower than this are listed one by one, to see what they have in common. */
export const SLOW_MS = 1_000;

export type RequestKind = "token" | "read" | "subscribe" | "inquiry";

export interface SlowRequest {
  /** Milliseconds since the load started. */
  at: number;
  ms: number;
  kind: RequestKind;
  /** False when the request had to open its connection first. */
  reusedSocket: boolean;
}

export interface AcknowledgedInquiry {
  id: number;
  marker: string;
}

export interface LoadRecord {
  seconds: number;
  /** Latency of every answered request, in milliseconds. */
  latencies: Float64Array;
  statuses: Map<number, number>;
  socketErrors: Map<string, number>;
  slow: SlowRequest[];
  subscribed: string[];
  inquiries: AcknowledgedInquiry[];
}

interface Answer {
  status: number;
  body: string;
  ms: number;
  reusedSocket: boolean;
}

export interface LoadOptions {
  origin: string;
  connections: number;
  seconds: number;
  /** Makes addresses and markers unique across runs on one database server. */
  runId: string;
  /** Told when every connection is open and the measured load begins. */
  onStart?(): void;
}

class Recorder {
  private latencies = new Float64Array(1 << 16);
  private count = 0;
  readonly statuses = new Map<number, number>();
  readonly socketErrors = new Map<string, number>();
  readonly slow: SlowRequest[] = [];
  readonly subscribed: string[] = [];
  readonly inquiries: AcknowledgedInquiry[] = [];

  constructor(public startedAt: number) {}

  answered(kind: RequestKind, answer: Answer): void {
    if (this.count === this.latencies.length) {
      const grown = new Float64Array(this.latencies.length * 2);
      grown.set(this.latencies);
      this.latencies = grown;
    }
    this.latencies[this.count++] = answer.ms;
    this.statuses.set(answer.status, (this.statuses.get(answer.status) ?? 0) + 1);
    if (answer.ms >= SLOW_MS) {
      const at = performance.now() - answer.ms - this.startedAt;
      this.slow.push({ at, ms: answer.ms, kind, reusedSocket: answer.reusedSocket });
    }
  }

  failed(error: NodeJS.ErrnoException): void {
    const code = error.code ?? error.message;
    this.socketErrors.set(code, (this.socketErrors.get(code) ?? 0) + 1);
  }

  result(seconds: number): LoadRecord {
    return {
      seconds,
      latencies: this.latencies.slice(0, this.count),
      statuses: this.statuses,
      socketErrors: this.socketErrors,
      slow: this.slow,
      subscribed: this.subscribed,
      inquiries: this.inquiries,
    };
  }
}

function send(
  agent: http.Agent,
  url: URL,
  method: string,
  headers: http.OutgoingHttpHeaders,
  keepBody: boolean,
  body?: string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const request = http.request(url, { agent, method, headers }, (response) => {
      const chunks: Buffer[] = [];
      // Reads are only timed; their bodies need not be kept.
      if (!keepBody) response.resume();
      else response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("error", reject);
      response.on("end", () =>
        resolve({
          status: response.statusCode ?? 0,
          body: Buffer.concat(chunks).toString("utf8"),
          ms: performance.now() - started,
          reusedSocket: request.reusedSocket,
        }),
      );
    });
    request.setTimeout(REQUEST_TIMEOUT_MS, () =>
      request.destroy(Object.assign(new Error("timed out"), { code: "TIMEOUT" })),
    );
    request.on("error", reject);
    request.end(body);
  });
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Phases {
  warmUp: Recorder;
  /** Called once the connection holds its token. */
  opened(): void;
  /** Resolves with the measured load's recorder and end once every connection is open. */
  load: Promise<{ record: Recorder; endAt: number }>;
}

async function connection(index: number, options: LoadOptions, phases: Phases) {
  let record = phases.warmUp;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const base = new URL(options.origin);
  // Browser-like: compressed answers, the cookie on every request once taken.
  const readHeaders: http.OutgoingHttpHeaders = { "accept-encoding": "br, gzip" };
  let writeHeaders: http.OutgoingHttpHeaders | undefined;
  let writes = 0;

  async function exchange(kind: RequestKind, method: string, path: string, body?: string) {
    const headers = kind === "read" || kind === "token" ? readHeaders : writeHeaders;
    const withBody =
      body === undefined ? headers : { ...headers, "content-type": "application/json" };
    const keepBody = kind !== "read";
    const answer = await send(agent, new URL(path, base), method, withBody ?? {}, keepBody, body);
    record.answered(kind, answer);
    return answer;
  }

  async function takeToken() {
    const answer = await exchange("token", "GET", "/api/v1/xsrf");
    if (answer.status !== 200) return;
    const { token } = JSON.parse(answer.body) as { token: string };
    readHeaders.cookie = `XSRF-TOKEN=${token}`;
    writeHeaders = { cookie: readHeaders.cookie, "x-xsrf-token": token };
  }

  async function subscribe() {
    const address = `load-${options.runId}-${index}-${writes++}@example.com`;
    const path = `/api/v1/subscribe?emailId=${encodeURIComponent(address)}`;
    const answer = await exchange("subscribe", "POST", path);
    if (answer.status === 201) record.subscribed.push(address);
    return answer;
  }

  async function inquire() {
    const marker = `load-${options.runId}-${index}-${writes++}`;
    const inquiry: Inquiry = {
      ...VALID_INQUIRY,
      email: `${marker}@example.com`,
      comments: `${VALID_INQUIRY.comments} [${marker}]`,
    };
    const answer = await exchange(
      "inquiry",
      "POST",
      "/api/v1/send-comment",
      JSON.stringify(inquiry),
    );
    if (answer.status === 200) {
      const { id } = JSON.parse(answer.body) as { id: number };
      record.inquiries.push({ id, marker });
    }
    return answer;
  }

  while (writeHeaders === undefined) {
    try {
      await takeToken();
    } catch (error) {
      record.failed(error as NodeJS.ErrnoException);
      await pause(RETRY_PAUSE_MS);
    }
  }
  phases.opened();
  const load = await phases.load;
  record = load.record;
  while (performance.now() < load.endAt) {
    try {
      if (writeHeaders === undefined) {
        await takeToken();
        continue;
      }
      const pick = Math.random();
      const answer =
        pick < SUBSCRIBE_SHARE
          ? await subscribe()
          : pick < SUBSCRIBE_SHARE + INQUIRY_SHARE
            ? await inquire()
            : await exchange("read", "GET", READS[Math.floor(Math.random() * READS.length)] ?? "/");
      // A refused token (say, the server's secret changed): take a new one, as the site's script would.
      if (answer.status === 403) writeHeaders = undefined;
    } catch (error) {
      record.failed(error as NodeJS.ErrnoException);
      await pause(RETRY_PAUSE_MS);
    }
  }
  agent.destroy();
}

/**
 * Opens every connection and takes its token first, then runs the load for
 * `seconds` on all of them at once. Opened during the load, connections
 * would wait in the server's accept queue: libuv accepts one connection per
 * event-loop turn (libuv#3696), and a turn of a saturated server lasts
 * 0.1-1 s, so the last of 200 would wait seconds before their first answer.
 */
export async function runLoad(options: LoadOptions): Promise<LoadRecord & { warmUp: LoadRecord }> {
  const warmUpStartedAt = performance.now();
  const warmUp = new Recorder(warmUpStartedAt);
  let open = 0;
  let start = (_load: { record: Recorder; endAt: number }) => {};
  const load = new Promise<{ record: Recorder; endAt: number }>((resolve) => {
    start = resolve;
  });
  let startedAt = 0;
  const record = new Recorder(0);
  const opened = () => {
    open += 1;
    if (open < options.connections) return;
    startedAt = performance.now();
    record.startedAt = startedAt;
    start({ record, endAt: startedAt + options.seconds * 1000 });
    options.onStart?.();
  };
  await Promise.all(
    Array.from({ length: options.connections }, (_, index) =>
      connection(index, options, { warmUp, opened, load }),
    ),
  );
  return {
    ...record.result((performance.now() - startedAt) / 1000),
    warmUp: warmUp.result((startedAt - warmUpStartedAt) / 1000),
  };
}
