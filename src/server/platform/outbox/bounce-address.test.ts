import { describe, expect, it } from "vitest";
import { bounceAddressFor, outboxIdOfBounceAddress } from "./bounce-address.ts";

const BASE = "bounces@mail.firm.example";
const SECRET = "s".repeat(32);

describe("per-message bounce addresses", () => {
  it("names its message, and reads back through a change of case", () => {
    const address = bounceAddressFor(BASE, SECRET, 12345);
    expect(address).toMatch(/^bounces\+9ix\.[0-9a-f]{20}@mail\.firm\.example$/);
    expect(outboxIdOfBounceAddress(BASE, SECRET, address)).toBe(12345);
    expect(outboxIdOfBounceAddress(BASE, SECRET, address.toUpperCase())).toBe(12345);
  });

  it("gives each message its own address", () => {
    expect(bounceAddressFor(BASE, SECRET, 1)).not.toBe(bounceAddressFor(BASE, SECRET, 2));
  });

  it("refuses a forged, mangled or foreign address", () => {
    const address = bounceAddressFor(BASE, SECRET, 77);
    const [local = "", domain = ""] = address.split("@");
    const token = local.slice("bounces+".length);
    const [id = "", signature = ""] = token.split(".");
    const flipped = `${signature.slice(0, -1)}${signature.endsWith("0") ? "1" : "0"}`;
    for (const wrong of [
      `bounces+${id}.${flipped}@${domain}`, // a signature that does not match
      `bounces+${(78).toString(36)}.${signature}@${domain}`, // another message's id
      `bounces+${id}.${signature.slice(0, -2)}@${domain}`, // cut short
      `bounces+${id}@${domain}`, // no signature
      `bounces@${domain}`, // the bare address
      `bounces+${token}@other.example`, // another domain
      `replies+${token}@${domain}`, // another base
      bounceAddressFor(BASE, "t".repeat(32), 77), // signed with another secret
      "not an address",
    ]) {
      expect(outboxIdOfBounceAddress(BASE, SECRET, wrong), wrong).toBeNull();
    }
  });
});
