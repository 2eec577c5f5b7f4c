/** A real SMTP server (the smtp-server package) that records what it accepts. */
import type { AddressInfo } from "node:net";
import PostalMime, { type Email } from "postal-mime";
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  raw: string;
  parsed: Email;
  recipients: string[];
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

/** Polls `select` until it yields at least `count` messages. */
async function collect(
  select: () => ReceivedMail[],
  count: number,
  what: string,
  timeoutMs = 15_000,
): Promise<ReceivedMail[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mails = select();
    if (mails.length >= count) return mails;
    if (Date.now() > deadline)
      throw new Error(`expected ${count} ${what}, received ${mails.length}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export async function startSmtp(): Promise<TestSmtp> {
  const received: ReceivedMail[] = [];
  let refusals = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
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
        });
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
    waitFor: (count, timeoutMs) => collect(() => received, count, "messages", timeoutMs),
    waitForMailTo: (address, count = 1) =>
      collect(
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
