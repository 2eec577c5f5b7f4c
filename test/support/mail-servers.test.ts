/**
 * The real mail servers the bounce tests run against: Postfix accepts a
 * message for a reader who exists and one who does not, delivers the first,
 * and sends its own DSN for the second to the envelope sender, which Dovecot
 * then serves from the bounce mailbox over IMAP.
 */
import { connect } from "node:net";
import { ImapFlow, type MessageStructureObject } from "imapflow";
import nodemailer from "nodemailer";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  MAIL_SERVERS_SKIP_REASON,
  type MailLogin,
  type MailServers,
  startMailServers,
} from "./mail-servers.ts";

if (MAIL_SERVERS_SKIP_REASON) console.warn(MAIL_SERVERS_SKIP_REASON);

const BOUNCE_ADDRESS = "bounces+tok123@bounces.test";
const READER = "ada@readers.test";
const UNKNOWN_READER = "nobody@readers.test";
const SUBJECT = "The November letter";
/** Postfix hands a message on within milliseconds; this bounds a lost one. */
const ARRIVAL_LIMIT_MS = 10_000;

async function openInbox(servers: MailServers, login: MailLogin): Promise<ImapFlow> {
  const client = new ImapFlow({
    host: servers.imap.host,
    port: servers.imap.port,
    secure: false,
    auth: login,
    logger: false,
  });
  await client.connect();
  return client;
}

/** Asks the server how many messages INBOX holds until there are `count`; the log explains a miss. */
async function waitForMessages(client: ImapFlow, count: number, servers: MailServers) {
  try {
    await vi.waitFor(
      async () => {
        const status = await client.status("INBOX", { messages: true });
        if (!status || (status.messages ?? 0) < count) throw new Error("not there yet");
      },
      { timeout: ARRIVAL_LIMIT_MS, interval: 50 },
    );
  } catch {
    throw new Error(
      `INBOX of ${client.options.auth?.user} never held ${count}:\n${await servers.maillog()}`,
    );
  }
}

/** The delivery-status part's fields: a record for the message, then one per recipient. */
function deliveryStatusRecords(text: string): Record<string, string>[] {
  return text
    .replace(/\r\n/g, "\n")
    .split(/\n\s*\n/)
    .filter((block) => block.trim())
    .map((block) =>
      Object.fromEntries(
        block
          .replace(/\n[ \t]+/g, " ")
          .split("\n")
          .map((line) => /^([^:]+):\s*(.*)$/.exec(line))
          .filter((match) => match !== null)
          .map((match) => [match[1]?.toLowerCase() ?? "", match[2]?.trim() ?? ""]),
      ),
    );
}

function findPart(node: MessageStructureObject, type: string): MessageStructureObject | undefined {
  if (node.type === type) return node;
  for (const child of node.childNodes ?? []) {
    const found = findPart(child, type);
    if (found) return found;
  }
  return undefined;
}

function refusesConnections(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", () => resolve(true));
  });
}

describe.skipIf(MAIL_SERVERS_SKIP_REASON)("Postfix and Dovecot on the loopback", () => {
  let servers: MailServers;
  beforeAll(async () => {
    servers = (await startMailServers({ existing: [READER] })) as MailServers;
  });
  afterAll(async () => {
    await servers?.stop();
  });

  it("delivers to an existing reader and returns Postfix's DSN for an unknown one to the bounce mailbox", async () => {
    const transport = nodemailer.createTransport({
      host: servers.smtp.host,
      port: servers.smtp.port,
      secure: false,
      ignoreTLS: true,
    });
    const sent = await transport.sendMail({
      from: "Letters <letters@example.org>",
      to: [READER, UNKNOWN_READER],
      subject: SUBJECT,
      text: "Hello.",
      envelope: { from: BOUNCE_ADDRESS, to: [READER, UNKNOWN_READER] },
    });
    expect(sent.accepted).toEqual([READER, UNKNOWN_READER]);

    const bounces = await openInbox(servers, servers.imap);
    try {
      await waitForMessages(bounces, 1, servers);
      const lock = await bounces.getMailboxLock("INBOX");
      try {
        const dsn = await bounces.fetchOne("1", { envelope: true, bodyStructure: true });
        const structure = dsn ? dsn.bodyStructure : undefined;
        if (!dsn || !structure) throw new Error("the DSN could not be fetched");
        expect(structure.type).toBe("multipart/report");
        expect(structure.parameters?.["report-type"]).toBe("delivery-status");
        expect(dsn.envelope?.to?.map((to) => to.address)).toEqual([BOUNCE_ADDRESS]);

        const statusPart = findPart(structure, "message/delivery-status");
        if (!statusPart?.part) throw new Error("the DSN has no delivery-status part");
        const withPart = await bounces.fetchOne("1", { bodyParts: [statusPart.part] });
        const text = withPart ? String(withPart.bodyParts?.get(statusPart.part)) : "";
        const [, ...recipients] = deliveryStatusRecords(text);
        expect(recipients).toHaveLength(1);
        expect(recipients[0]?.["final-recipient"]).toBe(`rfc822; ${UNKNOWN_READER}`);
        expect(recipients[0]?.action).toBe("failed");
        expect(recipients[0]?.status).toMatch(/^5\.\d{1,3}\.\d{1,3}$/);
      } finally {
        lock.release();
      }
    } finally {
      await bounces.logout();
    }

    const readers = await openInbox(servers, servers.readersLogin);
    try {
      await waitForMessages(readers, 1, servers);
      const lock = await readers.getMailboxLock("INBOX");
      try {
        const copy = await readers.fetchOne("1", { envelope: true });
        expect(copy ? copy.envelope?.subject : "no message").toBe(SUBJECT);
      } finally {
        lock.release();
      }
    } finally {
      await readers.logout();
    }
  });

  it("runs two pairs side by side, each stopped with its ports closed", async () => {
    const pairs = await Promise.all([
      startMailServers({ existing: [] }),
      startMailServers({ existing: [] }),
    ]);
    const [first, second] = pairs as MailServers[];
    if (!first || !second) throw new Error("the servers did not start");
    const ports = [first, second].flatMap((pair) => [pair.smtp.port, pair.imap.port]);
    expect(new Set([...ports, servers.smtp.port, servers.imap.port]).size).toBe(6);
    await Promise.all([first.stop(), second.stop()]);
    expect(await Promise.all(ports.map(refusesConnections))).toEqual([true, true, true, true]);
  });
});
