/**
 * Work a route does once its answer has left, so that the answer cannot tell
 * what the work found. A failure is logged (nobody is left to answer), and
 * the server waits for work under way before it closes, so the database is
 * not closed under it.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";

export function afterAnswer(app: FastifyInstance, failureMessage: string) {
  const underWay = new Set<Promise<void>>();
  app.addHook("onClose", async () => {
    await Promise.allSettled(underWay);
  });
  return (request: FastifyRequest, work: () => Promise<void>): Promise<void> => {
    const running = work()
      .catch((error: unknown) => request.log.error({ err: error }, failureMessage))
      .finally(() => underWay.delete(running));
    underWay.add(running);
    return running;
  };
}
