import type { Socket } from "node:net";
import type { FastifyInstance } from "fastify";
import { describe, expect, it } from "vitest";
import { answerClientError } from "../../../src/server/platform/ops/client-errors.ts";

const app = { log: { info() {} } } as unknown as FastifyInstance;

function fakeSocket(state: { destroyed?: boolean; writable?: boolean; headersSent?: boolean }) {
  const written: string[] = [];
  let destroyedWith: unknown;
  const socket = {
    destroyed: state.destroyed ?? false,
    writable: state.writable ?? true,
    _httpMessage: state.headersSent === undefined ? null : { headersSent: state.headersSent },
    write: (chunk: string) => written.push(chunk),
    destroy: (error: unknown) => {
      destroyedWith = error;
    },
  };
  return { socket: socket as unknown as Socket, written, destroyed: () => destroyedWith };
}

const timeout = Object.assign(new Error("Request timeout"), { code: "ERR_HTTP_REQUEST_TIMEOUT" });

describe("the answer to a request the parser gave up on", () => {
  it("is written and the socket closed when the connection can take it", () => {
    const { socket, written, destroyed } = fakeSocket({});
    answerClientError.call(app, timeout, socket);
    expect(written).toHaveLength(1);
    expect(written[0]).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(destroyed()).toBe(timeout);
  });

  it("is never written to a socket already destroyed, nor to a reset one", () => {
    const gone = fakeSocket({ destroyed: true });
    answerClientError.call(app, timeout, gone.socket);
    const reset = fakeSocket({});
    answerClientError.call(
      app,
      Object.assign(new Error("reset"), { code: "ECONNRESET" }),
      reset.socket,
    );
    expect([...gone.written, ...reset.written]).toEqual([]);
  });

  it("is not written to a socket that cannot be written, or over an answer already begun, which is closed", () => {
    for (const state of [{ writable: false }, { headersSent: true }]) {
      const { socket, written, destroyed } = fakeSocket(state);
      answerClientError.call(app, timeout, socket);
      expect(written).toEqual([]);
      expect(destroyed()).toBe(timeout);
    }
  });
});
