/** The people's settings slice: how sign-in failures lock an address out, and how long spent links stay. */
import { z } from "zod";

export const peopleSettings = z
  .object({
    SIGN_IN_FREE_FAILURES: z.coerce.number().int().min(1).default(5).meta({
      description:
        "Sign-in attempts an account may have from one address before that address is locked out of it. The account's untrusted clients together, and one address across accounts, get four times as many; a browser that signed in before (its `console_device` cookie) is counted on its own, so strangers cannot lock the owner out. Attempts are counted before the password is checked.",
    }),
    SIGN_IN_LOCK_SECONDS: z.coerce.number().int().min(1).default(60).meta({
      description: "The first lock's length; each further failure doubles it, up to an hour.",
    }),
    // Spent, they open nothing (ADR 048).
    TOKEN_RETENTION_DAYS: z.coerce.number().int().min(0).default(0).meta({
      description:
        "How long invitation and reset links stay after they were used or expired, and recovery codes after they were used.",
      comment: "Days the daily purge keeps a used or expired link and a used recovery code.",
    }),
  })
  .meta({
    title: "People and sign-in",
    description: "The console's accounts: sign-in lock-outs, and their spent links and codes.",
  });

export type PeopleSettings = z.output<typeof peopleSettings>;
