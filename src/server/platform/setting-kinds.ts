/**
 * The kinds of value a setting holds (a path, a flag, a URL, a mailbox),
 * each with the rule that refuses a wrong one at start. Every settings
 * slice, the platform's and each feature's, builds its settings from them,
 * so one kind is read one way wherever it is declared.
 */
import { realpathSync } from "node:fs";
import { resolve } from "node:path";
import { z } from "zod";
import { fromHeader, parseMailbox } from "./outbox/mailbox.ts";

/** Paths are resolved against the working directory (the package root under npm). */
export const path = (fallback: string) =>
  z
    .string()
    .min(1)
    .default(fallback)
    .transform((value) => (value === ":memory:" ? value : resolve(value)));

/**
 * A path into the build, with its links resolved once at start: a later
 * build switches the `build` link, and this instance keeps the files its
 * pages name.
 */
export const builtPath = (fallback: string) =>
  path(fallback).transform((value) => {
    try {
      return realpathSync(value);
    } catch {
      return value;
    }
  });

export const booleanFlag = z.enum(["true", "false"]).transform((value) => value === "true");

/**
 * The port written in `value`'s authority (after `//`, past any user and
 * an IPv6 literal's brackets), as written; undefined when none is.
 */
function writtenPort(value: string): string | undefined {
  const start = value.indexOf("//");
  if (start === -1) return undefined;
  let end = start + 2;
  while (end < value.length && !"/?#".includes(value[end] as string)) end += 1;
  const authority = value.slice(start + 2, end);
  const hostAndPort = authority.slice(authority.lastIndexOf("@") + 1);
  const colon = hostAndPort.indexOf(":", hostAndPort.lastIndexOf("]") + 1);
  return colon === -1 ? undefined : hostAndPort.slice(colon + 1);
}

/**
 * Why `value` is no URL, said so an operator can mend it; undefined when it
 * is one. A wrong port is named as such: the URL parser only says "Invalid
 * URL", and the database's client fails later with a stack trace instead.
 */
function urlFault(value: string): string | undefined {
  const port = writtenPort(value);
  if (port !== undefined && port !== "") {
    const number = /^\d{1,5}$/.test(port) ? Number(port) : 0;
    if (number < 1 || number > 65_535) {
      return `its port ${JSON.stringify(port)} is not a number from 1 to 65535`;
    }
  }
  if (!URL.canParse(value)) {
    return "is not a URL: each part of it must be written as a URL writes it (a space or a special character in a password percent-encoded, e.g. %40 for @)";
  }
  return undefined;
}

/** A URL setting; its scheme is checked after, by each. */
export const url = () =>
  z.string().superRefine((value, context) => {
    const fault = urlFault(value);
    if (fault !== undefined) context.addIssue({ code: "custom", message: fault });
  });

/** An address setting: one mailbox, `"Name" <address>`, `Name <address>` or an address alone. */
const mailbox = z.string().transform((value, context) => {
  const parsed = parseMailbox(value);
  if (!("refusal" in parsed)) return parsed;
  context.addIssue({ code: "custom", message: parsed.refusal });
  return z.NEVER;
});

/** The From of every mail, written back as a header that quotes the name. */
export const sender = mailbox.transform(fromHeader);

/** A recipient's or the envelope's address: a name given with it would go nowhere, so only the address is kept. */
export const address = mailbox.transform((parsed) => parsed.address);
