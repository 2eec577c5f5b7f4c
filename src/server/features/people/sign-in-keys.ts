/**
 * The keys a sign-in attempt is counted under (features/people/sign-in-throttle.ts).
 * From a known device: the device alone. From anywhere else: the account at
 * that address (the free failures), the account's untrusted clients together
 * (a larger allowance, so guesses spread over many addresses are still
 * slowed, while one stranger cannot lock the owner out), and the address
 * (one office may share it, and a script may try many accounts from it).
 */
import type { ThrottleKey, ThrottlePolicy } from "./sign-in-throttle.ts";

/** How many times an account's free failures its untrusted clients get together. */
const UNTRUSTED_ALLOWANCE = 4;
/** How many times an account's free failures one address gets across accounts. */
const ADDRESS_ALLOWANCE = 4;

function scaled(policy: ThrottlePolicy, times: number): ThrottlePolicy {
  return { ...policy, freeFailures: policy.freeFailures * times };
}

export function signInKeys(
  email: string,
  ip: string,
  device: string | null,
  policy: ThrottlePolicy,
): ThrottleKey[] {
  if (device) return [{ key: `device:${device}`, account: email, policy, onSuccess: "clear" }];
  return [
    { key: `account-at:${ip} ${email}`, account: email, policy, onSuccess: "clear" },
    {
      key: `account:${email}`,
      account: email,
      policy: scaled(policy, UNTRUSTED_ALLOWANCE),
      onSuccess: "take back",
    },
    {
      key: `address:${ip}`,
      account: null,
      policy: scaled(policy, ADDRESS_ALLOWANCE),
      onSuccess: "take back",
    },
  ];
}
