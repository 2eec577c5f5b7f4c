/**
 * Closing without cutting a request off. A stop by signal goes through
 * drainAndClose: first the instance says it is leaving (/readyz answers 503,
 * ops/health.ts) while it serves on for the drain delay, so that a balancer
 * polling /readyz stops sending it requests; then it closes.
 *
 * Closing stops listening at once, so a proxy's new connection is refused
 * and it tries the next instance (nginx does so even for a POST, which was
 * never sent). The open connections are served on, and every answer carries
 * `Connection: close` (Fastify adds it to requests that arrive during the
 * close, this plugin to those already in flight), so a keep-alive connection
 * ends cleanly after its answer. An idle connection is left for its client to
 * close, as long as the drain delay (at least a short moment): a client that
 * just got an answer may already have sent its next request on it, and
 * destroying it then (as Node's server.close() does with every idle one)
 * throws that request away and resets the connection; a proxy whose idle
 * time-out is shorter than the drain delay closes each of its own first.
 * Whatever is still idle after that is closed by server.close().
 */
import { Server, type Socket } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";

/** The least an idle connection is given to close: a request already on its way arrives within it. */
export const KEEP_ALIVE_DRAIN_MS = 500;

declare module "fastify" {
  interface FastifyInstance {
    /** True from the moment a stop began: the instance is no longer ready for new work. */
    readonly draining: boolean;
    /** Says the instance is leaving, serves on for `drainDelayMs`, then closes as above. */
    drainAndClose(drainDelayMs: number): Promise<void>;
  }
}

export default fp(
  async function gracefulClose(app: FastifyInstance) {
    const open = new Set<Socket>();
    let lastClosed = () => {};
    app.server.on("connection", (socket: Socket) => {
      open.add(socket);
      socket.once("close", () => {
        open.delete(socket);
        if (open.size === 0) lastClosed();
      });
    });

    let draining = false;
    let idleWaitMs = KEEP_ALIVE_DRAIN_MS;
    app.decorate("draining", {
      getter: () => draining,
    });
    app.decorate("drainAndClose", async (drainDelayMs: number) => {
      draining = true;
      idleWaitMs = Math.max(KEEP_ALIVE_DRAIN_MS, drainDelayMs);
      if (drainDelayMs > 0) await sleep(drainDelayMs);
      await app.close();
    });

    let closing = false;
    app.addHook("preClose", async () => {
      closing = true;
      draining = true;
      // Only the listening socket: Node's server.close() would also destroy the idle connections.
      if (app.server.listening) Server.prototype.close.call(app.server);
      if (open.size === 0) return;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, idleWaitMs);
        lastClosed = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    });
    app.addHook("onSend", (_request, reply, payload, done) => {
      if (closing) reply.header("connection", "close");
      done(null, payload);
    });
  },
  { name: "graceful-close" },
);
