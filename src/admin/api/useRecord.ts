/**
 * The one record a screen edits (the site facts, the mail settings): loaded
 * when the screen opens, replaced by what a save answers, and loaded again on
 * request (after someone else saved). A failed load says why.
 */
import { useCallback, useEffect, useState } from "react";
import { failureText } from "./refusal.ts";

/** `fetch` must keep its identity (a function defined outside the component). */
export function useRecord<T>(fetch: () => Promise<T>) {
  const [record, setRecord] = useState<T | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      setRecord(await fetch());
      setFailure(null);
    } catch (error) {
      setFailure(failureText(error));
    }
  }, [fetch]);

  useEffect(() => {
    void load();
  }, [load]);

  return { record, setRecord, failure, load };
}
