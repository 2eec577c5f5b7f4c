/**
 * A receiving server that defers every recipient of chosen domains with
 * "421 4.7.0", as a mailbox provider that throttles a sender does, and
 * records when it accepts each message, for the tests of pacing per domain.
 */
import type { AddressInfo } from "node:net";
import PostalMime from "postal-mime";
import { SMTPServer } from "smtp-server";

export interface Arrival {
  recipient: string;
  subject: string;
  /** When the server accepted it (ms since the epoch). */
  at: number;
}

export interface DeferringSmtp {
  url: string;
  arrivals: Arrival[];
  /** The domains deferred now; the test changes it as the provider would change its mind. */
  deferredDomains: Set<string>;
  /** When each recipient was deferred (ms since the epoch), in order. */
  deferrals: number[];
  /** What arrived for `domain`, in order of arrival. */
  arrivedAt(domain: string): Arrival[];
  close(): Promise<void>;
}

export const DEFERRAL_REPLY = "4.7.0 Try again later: too many messages from your server";

export async function startDeferringSmtp(deferredDomains: string[] = []): Promise<DeferringSmtp> {
  const arrivals: Arrival[] = [];
  const deferred = new Set(deferredDomains);
  const deferrals: number[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onRcptTo(address, _session, callback) {
      const domain = address.address.split("@").pop()?.toLowerCase() ?? "";
      if (!deferred.has(domain)) return callback();
      deferrals.push(Date.now());
      callback(Object.assign(new Error(DEFERRAL_REPLY), { responseCode: 421 }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", async () => {
        const at = Date.now();
        const parsed = await PostalMime.parse(Buffer.concat(chunks));
        for (const { address } of session.envelope.rcptTo) {
          arrivals.push({ recipient: address, subject: parsed.subject ?? "", at });
        }
        callback();
      });
    },
  });
  // A 421 closes the session; the sender's pool may reset what is left of it.
  server.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "ECONNRESET") throw error;
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    arrivals,
    deferredDomains: deferred,
    deferrals,
    arrivedAt: (domain) => arrivals.filter((arrival) => arrival.recipient.endsWith(`@${domain}`)),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
