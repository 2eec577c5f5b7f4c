/**
 * Closing without cutting a request off. While the server closes, every
 * answer carries `Connection: close` (Fastify adds it to requests that arrive
 * during the close, this plugin to those already in flight), so a keep-alive
 * connection ends cleanly after its answer. Connections stay open for a
 * short drain first: a client that just got an answer may already have sent
 * its next request on the same connection, and destroying that connection at
 * once (as Node's server.close() does with every idle one) throws the request
 * away and resets the connection. Whatever is still idle after the drain is
 * closed by server.close().
 */
import type { Socket } from "node:net";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";

/** Long enough for a request already on its way; short enough not to hold a restart up. */
export const KEEP_ALIVE_DRAIN_MS = 500;

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

    let closing = false;
    app.addHook("preClose", async () => {
      closing = true;
      if (open.size === 0) return;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, KEEP_ALIVE_DRAIN_MS);
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
