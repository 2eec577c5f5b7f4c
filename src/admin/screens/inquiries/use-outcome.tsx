/**
 * Runs one change against the server and shows how it went, next to the
 * form that asked: what was done, or the server's reason. A refused change
 * leaves the form as the person left it.
 */
import { useCallback, useState } from "react";
import { failureText } from "../../api/refusal.ts";
import { Notice } from "../../components/Notice.tsx";

interface Outcome {
  tone: "success" | "error";
  text: string;
}

export function useOutcome() {
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const attempt = useCallback(
    async <T,>(change: () => Promise<T>, done: (result: T) => string): Promise<T | undefined> => {
      setOutcome(null);
      try {
        const result = await change();
        setOutcome({ tone: "success", text: done(result) });
        return result;
      } catch (error) {
        setOutcome({ tone: "error", text: failureText(error) });
        return undefined;
      }
    },
    [],
  );
  const notice = outcome ? <Notice tone={outcome.tone}>{outcome.text}</Notice> : null;
  return { attempt, notice };
}
