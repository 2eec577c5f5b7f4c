/**
 * The Redis the shared rate-limit tests count in: TEST_REDIS_URL, or those
 * tests are skipped with the reason below. Each test app gets a key prefix
 * of its own, so test files running side by side never share a counter.
 */
import { randomBytes } from "node:crypto";
import { type AddressInfo, connect, createServer, type Socket } from "node:net";

export const REDIS_URL = process.env.TEST_REDIS_URL;
export const REDIS_SKIP_REASON = "Redis tests skipped: TEST_REDIS_URL is not set";

/** Environment for a server counting in the test Redis under a fresh prefix. */
export function redisEnv(url: string): Record<string, string> {
  return { REDIS_URL: url, REDIS_KEY_PREFIX: `test-${randomBytes(6).toString("hex")}:` };
}

/**
 * A TCP relay to Redis that the test can cut and restore, as a network
 * outage would. While cut it drops every connection attempt at once, and
 * counts them, so a test can wait for the client's retries.
 */
export async function redisRelay(url: string) {
  const target = new URL(url);
  const sockets = new Set<Socket>();
  let cut = false;
  let dropped = 0;
  const server = createServer((client) => {
    client.on("error", () => {});
    if (cut) {
      dropped += 1;
      client.destroy();
      return;
    }
    const upstream = connect(Number(target.port || 6379), target.hostname);
    upstream.on("error", () => {});
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `redis://127.0.0.1:${port}`,
    dropped: () => dropped,
    cut() {
      cut = true;
      for (const socket of sockets) socket.destroy();
    },
    restore() {
      cut = false;
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
