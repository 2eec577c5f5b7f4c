import { useState } from "react";

/**
 * Resets a component's state when a value it follows changes (a navigation,
 * the address's search words, a saved draft): `reset` runs while rendering,
 * once for each change, and never for the first value.
 *
 * An effect cannot do this job. It also runs once after the first render,
 * and it runs late: a menu opened or words typed between the first paint and
 * that run would be undone, which a quick person, or a browser test on a busy
 * machine, sees happen.
 *
 * The value is compared by identity: pass a string, a number, or an object
 * that stays the same between renders until it really changes (an answer
 * from the server), never one made afresh while rendering.
 */
export function useResetOnChange(value: unknown, reset: () => void): void {
  const [seen, setSeen] = useState(() => value);
  if (!Object.is(seen, value)) {
    setSeen(() => value);
    reset();
  }
}
