/**
 * A real HTTP receiver for outgoing webhooks, on the loopback: it keeps
 * every request it is sent (path, headers, body) and answers each path's
 * requests as the test scripted them, in turn — a status, "hang" (never
 * answer, so the sender's time-out is what ends it) or "hold" (answer 200
 * when the test releases it) — then 200.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedHook {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export type Answer = number | "hang" | "hold";

export interface WebhookReceiver {
  /** The receiver's address for `path`: http://127.0.0.1:<port><path>. */
  url(path: string): string;
  /** How the next requests to `path` are answered, in turn; 200 after them. */
  script(path: string, answers: Answer[]): void;
  /** Answers 200 to the requests to `path` held so far. */
  release(path: string): void;
  /** The requests `path` was sent, in order. */
  received(path: string): ReceivedHook[];
  /** Every request, in order. */
  all(): ReceivedHook[];
  close(): Promise<void>;
}

export async function startReceiver(): Promise<WebhookReceiver> {
  const requests: ReceivedHook[] = [];
  const scripts = new Map<string, Answer[]>();
  const held = new Map<string, ServerResponse[]>();
  const answer = (response: ServerResponse, status: number) => {
    response.writeHead(status, { "content-type": "text/plain" });
    response.end(status < 300 ? "ok" : `answer ${status}`);
  };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const path = request.url ?? "/";
      requests.push({ path, headers: request.headers, body: Buffer.concat(chunks).toString() });
      const scripted = scripts.get(path)?.shift() ?? 200;
      if (scripted === "hang") return;
      if (scripted === "hold") held.set(path, [...(held.get(path) ?? []), response]);
      else answer(response, scripted);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    script: (path, answers) => void scripts.set(path, [...answers]),
    release: (path) => {
      for (const response of held.get(path) ?? []) answer(response, 200);
      held.delete(path);
    },
    received: (path) => requests.filter((request) => request.path === path),
    all: () => [...requests],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** An address on the loopback where nothing listens: a receiver that is down. */
export async function closedPortUrl(path: string): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}${path}`;
}
