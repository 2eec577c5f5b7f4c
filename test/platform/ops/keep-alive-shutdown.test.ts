/**
 * Shutdown with keep-alive connections open: clients that keep sending
 * requests on their connections, and one that sits idle. Each busy client
 * stops once an answer says `Connection: close`, as HTTP asks. Every request
 * sent must be answered, every connection must end with the server's FIN (no
 * reset), and the process must exit promptly rather than after the
 * keep-alive time-out.
 */
import { mkdtempSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { startServer } from "../../support/server-process.ts";

const BUSY_CLIENTS = 20;
const REQUEST = "GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n";

/** One keep-alive connection, with what happened on it. */
function connection(origin: string, { busy }: { busy: boolean }) {
  const { port, hostname } = new URL(origin);
  const socket = net.connect(Number(port), hostname);
  socket.setEncoding("latin1");
  const state = { sent: 0, answered: 0, told: false, ended: false, error: "" };
  const send = () => {
    state.sent += 1;
    socket.write(REQUEST);
  };
  let buffer = "";
  socket.on("data", (chunk: string) => {
    buffer += chunk;
    for (;;) {
      const end = buffer.indexOf("\r\n\r\n");
      if (end === -1) return;
      const head = buffer.slice(0, end);
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
      if (buffer.length < end + 4 + length) return;
      buffer = buffer.slice(end + 4 + length);
      state.answered += 1;
      if (/\r\nconnection: *close/i.test(head)) state.told = true;
      else if (busy) send();
    }
  });
  socket.on("end", () => {
    state.ended = true;
  });
  socket.on("error", (error: NodeJS.ErrnoException) => {
    state.error = error.code ?? error.message;
  });
  socket.on("connect", send);
  // Not events.once: it would reject on the "error" that a reset brings.
  const closed = new Promise((resolve) => socket.once("close", resolve));
  return { state, closed };
}

async function until(condition: () => boolean, limitMs = 10_000) {
  await vi.waitFor(
    () => {
      if (!condition()) throw new Error("condition not met in time");
    },
    { timeout: limitMs, interval: 20 },
  );
}

describe("shutdown with keep-alive connections open", () => {
  it("answers every request sent, ends each connection cleanly and exits promptly", async () => {
    const server = await startServer({
      SQLITE_FILE: join(mkdtempSync(join(tmpdir(), "keep-alive-")), "site.db"),
      LOG_LEVEL: "info",
    });
    const idle = connection(server.origin, { busy: false });
    const busy = Array.from({ length: BUSY_CLIENTS }, () =>
      connection(server.origin, { busy: true }),
    );
    await until(() => idle.state.answered === 1 && busy.every(({ state }) => state.answered >= 5));

    const signalledAt = Date.now();
    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);
    const exitedAfterMs = Date.now() - signalledAt;
    await Promise.all([idle, ...busy].map(({ closed }) => closed));

    for (const { state } of [idle, ...busy]) {
      expect(state).toMatchObject({ error: "", ended: true });
      expect(state.answered).toBe(state.sent);
    }
    expect(busy.every(({ state }) => state.told)).toBe(true);
    expect(exitedAfterMs).toBeLessThan(3_000);
  });
});
