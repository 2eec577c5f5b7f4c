/**
 * One attempt at a delivery: the body posted, signed per the Standard
 * Webhooks scheme, to an address checked as it is connected to, within a
 * time-out, redirects not followed; what the receiver answered, read no
 * further than the first bytes.
 */
import http, { type IncomingMessage } from "node:http";
import https from "node:https";
import { isIP } from "node:net";
import { Webhook } from "standardwebhooks";
import {
  type AddressPolicy,
  BlockedAddressError,
  guardedLookup,
  isBlockedAddress,
} from "./addresses.ts";

/** How much of a receiver's answer is kept for the log. */
export const ANSWER_BYTES_KEPT = 500;

export interface Attempt {
  url: string;
  secret: string;
  webhookId: string;
  payload: string;
  /** The attempt's time, signed as `webhook-timestamp`. */
  at: Date;
}

export interface PostResult {
  status: number | null;
  body: string;
  durationMs: number;
  error: string | null;
  /** Whether trying again may go otherwise: a network failure, a time-out, 408, 429 or 5xx. */
  retryable: boolean;
  /** A wait the receiver asked for (429 or 503 with Retry-After in seconds). */
  retryAfterMs?: number;
}

/** The three headers of the Standard Webhooks scheme; the signature is `v1,<base64>`. */
export function signedHeaders(secret: string, webhookId: string, at: Date, payload: string) {
  return {
    "webhook-id": webhookId,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": new Webhook(secret).sign(webhookId, at, payload),
  };
}

const USER_AGENT = "consultancy-site-webhooks/1";

function retryAfter(response: IncomingMessage): number | undefined {
  const header = response.headers["retry-after"];
  if (!header || !/^\d+$/.test(header)) return undefined;
  return Number(header) * 1000;
}

function describe(error: unknown, timeoutMs: number): string {
  if (error instanceof BlockedAddressError) return error.message;
  if (error instanceof Error && error.name === "TimeoutError") {
    return `No answer within ${timeoutMs / 1000} s: timed out`;
  }
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === "ENOTFOUND") return "The host name does not resolve";
  if (code === "ECONNREFUSED") return "The connection was refused";
  if (code === "ECONNRESET") return "The connection was reset";
  if (code?.startsWith("ERR_TLS") || code?.includes("CERT")) {
    return `The TLS certificate was not accepted (${code})`;
  }
  return error instanceof Error ? error.message : String(error);
}

/** Posts one attempt; never throws: every failure is an answer with its reason. */
export function postAttempt(
  attempt: Attempt,
  policy: AddressPolicy,
  timeoutMs: number,
): Promise<PostResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    const url = new URL(attempt.url);
    const host = url.hostname.replace(/^\[|\]$/g, "");
    // A literal address is connected to without a lookup: checked here, as names are in guardedLookup.
    if (!policy.allowPrivate && isIP(host) !== 0 && isBlockedAddress(host)) {
      resolve({
        status: null,
        body: "",
        durationMs: 0,
        error: new BlockedAddressError(host, host).message,
        retryable: false,
      });
      return;
    }
    const signal = AbortSignal.timeout(timeoutMs);
    const client = url.protocol === "https:" ? https : http;
    let settled = false;
    const settle = (result: PostResult) => {
      if (settled) return;
      settled = true;
      resolve(result);
    };
    const request = client.request(
      url,
      {
        method: "POST",
        signal,
        lookup: guardedLookup(policy) as never,
        headers: {
          "content-type": "application/json",
          "user-agent": USER_AGENT,
          "content-length": Buffer.byteLength(attempt.payload),
          ...signedHeaders(attempt.secret, attempt.webhookId, attempt.at, attempt.payload),
        },
      },
      (response) => {
        const status = response.statusCode ?? 0;
        const chunks: Buffer[] = [];
        let kept = 0;
        const finish = () => {
          const body = Buffer.concat(chunks).subarray(0, ANSWER_BYTES_KEPT).toString("utf8");
          const ok = status >= 200 && status < 300;
          const wait = retryAfter(response);
          settle({
            status,
            body,
            durationMs: elapsed(),
            error: ok
              ? null
              : status >= 300 && status < 400
                ? `Answered ${status}: redirects are not followed`
                : `Answered ${status}`,
            retryable: status === 408 || status === 429 || status >= 500,
            ...(wait !== undefined ? { retryAfterMs: wait } : {}),
          });
          response.destroy();
        };
        response.on("data", (chunk: Buffer) => {
          if (kept < ANSWER_BYTES_KEPT) chunks.push(chunk);
          kept += chunk.length;
          // The first bytes are all the log keeps: no receiver can make the worker read on.
          if (kept >= ANSWER_BYTES_KEPT) finish();
        });
        response.on("end", finish);
        response.on("error", finish);
      },
    );
    request.on("error", (error) => {
      const reason = signal.aborted ? signal.reason : error;
      settle({
        status: null,
        body: "",
        durationMs: elapsed(),
        error: describe(reason, timeoutMs),
        retryable: !(reason instanceof BlockedAddressError),
      });
    });
    request.end(attempt.payload);
  });
}
