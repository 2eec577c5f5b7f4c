/**
 * A local SMTP server for the mail benchmarks: it accepts everything, keeps
 * nothing, and tells `onMessage` the recipients and the envelope sender of
 * each message it accepts.
 * Written on `net` rather than with smtp-server, whose 100 ms wait for early
 * talkers on every connection would cap the sender at about nine messages a
 * second and hide its cost.
 */
import { type AddressInfo, createServer } from "node:net";

export interface SmtpSink {
  url: string;
  /** Messages accepted since the sink started. */
  accepted(): number;
  close(): Promise<void>;
}

export async function startSmtpSink(
  onMessage: (recipients: readonly string[], envelopeFrom: string) => void = () => {},
): Promise<SmtpSink> {
  let accepted = 0;
  const server = createServer((socket) => {
    let pending = "";
    let inData = false;
    let recipients: string[] = [];
    let envelopeFrom = "";
    const reply = (line: string) => socket.write(`${line}\r\n`);
    reply("220 sink ESMTP");
    socket.on("error", () => socket.destroy());
    socket.on("data", (chunk: Buffer) => {
      pending += chunk.toString("latin1");
      for (;;) {
        if (inData) {
          const end = pending.indexOf("\r\n.\r\n");
          if (end < 0) return;
          pending = pending.slice(end + 5);
          inData = false;
          accepted += 1;
          onMessage(recipients, envelopeFrom);
          reply("250 accepted");
          continue;
        }
        const lineEnd = pending.indexOf("\r\n");
        if (lineEnd < 0) return;
        const line = pending.slice(0, lineEnd);
        pending = pending.slice(lineEnd + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === "MAIL") {
          recipients = [];
          envelopeFrom = /<([^>]*)>/.exec(line)?.[1] ?? "";
        }
        if (verb === "RCPT") recipients.push(/<([^>]*)>/.exec(line)?.[1] ?? "");
        if (verb === "DATA") {
          inData = true;
          // The terminator's first line break is the one that ends this command.
          pending = `\r\n${pending}`;
          reply("354 go ahead");
        } else if (verb === "QUIT") {
          reply("221 bye");
          socket.end();
        } else {
          reply("250 ok");
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    accepted: () => accepted,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
