/** A real SMTP server (the smtp-server package) that records what it accepts. */
import { EventEmitter } from "node:events";
import type { AddressInfo } from "node:net";
import PostalMime, { type Email } from "postal-mime";
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  raw: string;
  parsed: Email;
  recipients: string[];
  /** The envelope sender (MAIL FROM), where reports about the message would go. */
  envelopeFrom: string;
  /** When the server accepted it (ms since the epoch). */
  at: number;
}

export interface TestSmtp {
  url: string;
  received: ReceivedMail[];
  /** Refuses the next `count` messages with a temporary failure. */
  refuseNext(count: number): void;
  /** Resolves once at least `count` messages have been accepted. */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  /** Resolves with the messages to `address` once there are at least `count`. */
  waitForMailTo(address: string, count?: number): Promise<ReceivedMail[]>;
  close(): Promise<void>;
}

/**
 * Resolves once `select` yields at least `count` messages, checked at each
 * message the server accepts; fails after `timeoutMs` with what it has.
 */
function collect(
  arrivals: EventEmitter,
  select: () => ReceivedMail[],
  count: number,
  what: string,
  timeoutMs = 15_000,
): Promise<ReceivedMail[]> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const mails = select();
      if (mails.length < count) return;
      stop();
      resolve(mails);
    };
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`expected ${count} ${what}, received ${select().length}`));
    }, timeoutMs);
    const stop = () => {
      clearTimeout(timer);
      arrivals.off("mail", check);
    };
    arrivals.on("mail", check);
    check();
  });
}

export interface SmtpOptions {
  /** Addresses refused for good at RCPT TO, as a server refuses a mailbox that does not exist. */
  unknownRecipients?: readonly string[];
}

/** What a receiving server answers for a mailbox it does not have. */
export const UNKNOWN_RECIPIENT_REPLY = "5.1.1 Recipient address rejected: User unknown";

export async function startSmtp({ unknownRecipients = [] }: SmtpOptions = {}): Promise<TestSmtp> {
  const received: ReceivedMail[] = [];
  const arrivals = new EventEmitter();
  const unknown = new Set(unknownRecipients.map((address) => address.toLowerCase()));
  let refusals = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (!unknown.has(address.address.toLowerCase())) return callback();
      callback(Object.assign(new Error(UNKNOWN_RECIPIENT_REPLY), { responseCode: 550 }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", async () => {
        if (refusals > 0) {
          refusals -= 1;
          const error = Object.assign(new Error("Mailbox busy, try again later"), {
            responseCode: 451,
          });
          return callback(error);
        }
        const raw = Buffer.concat(chunks).toString("utf8");
        const at = Date.now();
        received.push({
          at,
          raw,
          parsed: await PostalMime.parse(raw),
          recipients: session.envelope.rcptTo.map((r) => r.address),
          envelopeFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
        });
        arrivals.emit("mail");
        callback();
      });
    },
  });
  // A client killed mid-session (test/process/*crash*) resets its connection:
  // the test's own doing, not a failure of the server under test.
  server.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "ECONNRESET") throw error;
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;

  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    refuseNext(count) {
      refusals = count;
    },
    waitFor: (count, timeoutMs) => collect(arrivals, () => received, count, "messages", timeoutMs),
    waitForMailTo: (address, count = 1) =>
      collect(
        arrivals,
        () => received.filter((mail) => mail.recipients.includes(address)),
        count,
        `messages to ${address}`,
      ),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export function header(mail: ReceivedMail, name: string): string | undefined {
  return mail.parsed.headers.find((h) => h.key === name.toLowerCase())?.value;
}
