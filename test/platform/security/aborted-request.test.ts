/**
 * A client that resets its connection right after its headers leaves a
 * socket that no longer knows its peer, so request.ip is undefined when the
 * write limit asks for it. Whether a real reset lands before or after the
 * server reads the address is a race between two processes, so the key is
 * given that request directly: it ends as the client's doing (499, a client
 * error the one error handler answers and logs at info), never as the
 * TypeError the library's own key threw.
 */
import { describe, expect, it } from "vitest";
import {
  CONNECTION_GONE_MESSAGE,
  clientKey,
} from "../../../src/server/platform/security/rate-limit.ts";

describe("the write limit's key", () => {
  it("ends a request whose address is gone as the client's doing, with no TypeError", () => {
    const gone = { ip: undefined as unknown as string };
    expect(() => clientKey(gone)).toThrow(CONNECTION_GONE_MESSAGE);
    try {
      clientKey(gone);
    } catch (error) {
      expect(error).not.toBeInstanceOf(TypeError);
      expect((error as { statusCode?: number }).statusCode).toBe(499);
    }
  });

  it("counts IPv4 addresses alone and IPv6 addresses by their /64", () => {
    expect(clientKey({ ip: "203.0.113.7" })).toBe("203.0.113.7");
    expect(clientKey({ ip: "2001:db8:1:2:aaaa::1" })).toBe(clientKey({ ip: "2001:db8:1:2::9" }));
  });
});
