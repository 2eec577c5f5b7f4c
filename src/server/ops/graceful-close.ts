/**
 * While the server closes, requests already in flight are answered with
 * `Connection: close`, so their keep-alive sockets end with the response and
 * the close is not held up until the keep-alive time-out.
 */
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";

export default fp(
  async function gracefulClose(app: FastifyInstance) {
    let closing = false;
    app.addHook("preClose", async () => {
      closing = true;
    });
    app.addHook("onSend", async (_request, reply) => {
      if (closing) reply.header("connection", "close");
    });
  },
  { name: "graceful-close" },
);
