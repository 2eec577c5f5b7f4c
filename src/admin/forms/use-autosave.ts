/**
 * Saves a form to the server as the person types: a moment after they stop,
 * never two saves at once (changes made during a save are saved right after
 * it), and only a form the server would take; otherwise the form says why it
 * is not saved yet. What is typed meanwhile is kept in the browser by
 * useKeptTyping, so a failed save loses nothing.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import type { FieldValues, UseFormReturn } from "react-hook-form";
import type { z } from "zod";
import type { KeptTyping } from "./use-kept-typing.tsx";

export type AutosaveState =
  /** Nothing typed since the form was loaded. */
  | { kind: "idle" }
  /** Typed; the save follows when the typing pauses. */
  | { kind: "waiting" }
  | { kind: "saving" }
  | { kind: "saved"; at: Date }
  /** Not saved, and why: the form is not complete, the server refused, or could not be reached. */
  | { kind: "not-saved"; reason: string };

export interface AutosaveOptions<T> {
  /**
   * Saves the values; answers null once the server has them, or why it did
   * not take them (its refusal is shown by the form too).
   */
  save(values: T): Promise<string | null>;
  /** Why the server would refuse these values, or null when they can be saved. */
  incomplete(values: T): string | null;
  /**
   * The form's kept typing: whether it holds anything the server does not,
   * and a copy put back after a lost session, which is saved as soon as it can be.
   */
  kept: Pick<KeptTyping<T>, "unsaved" | "restoredAt">;
  /** Off while the form cannot be saved as is (not yet created, or no longer a draft). */
  enabled?: boolean;
  delayMs?: number;
  now?: () => Date;
}

export const AUTOSAVE_DELAY_MS = 1500;

export function useAutosave<T extends FieldValues>(
  form: UseFormReturn<T>,
  {
    save,
    incomplete,
    kept,
    enabled = true,
    delayMs = AUTOSAVE_DELAY_MS,
    now = () => new Date(),
  }: AutosaveOptions<T>,
): AutosaveState {
  const [state, setState] = useState<AutosaveState>({ kind: "idle" });
  const { unsaved, restoredAt } = kept;
  // The latest of each, read when the timer fires rather than when it was set.
  const latest = useRef({ save, incomplete, unsaved, now });
  latest.current = { save, incomplete, unsaved, now };
  const saving = useRef(false);
  const lastSaved = useRef<Date | null>(null);
  const again = useRef(false);

  const run = useCallback(async () => {
    if (saving.current) {
      again.current = true;
      return;
    }
    // Saved meanwhile (the Save button, or the same text typed back).
    if (!latest.current.unsaved()) {
      const at = lastSaved.current;
      setState(at ? { kind: "saved", at } : { kind: "idle" });
      return;
    }
    const values = form.getValues();
    const why = latest.current.incomplete(values);
    if (why) {
      setState({ kind: "not-saved", reason: why });
      return;
    }
    saving.current = true;
    setState({ kind: "saving" });
    const refused = await latest.current.save(values).finally(() => {
      saving.current = false;
    });
    if (refused) setState({ kind: "not-saved", reason: refused });
    else {
      lastSaved.current = latest.current.now();
      setState({ kind: "saved", at: lastSaved.current });
    }
    if (again.current) {
      again.current = false;
      await run();
    }
  }, [form]);

  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const saveSoon = useCallback(() => {
    if (!enabled) return;
    setState({ kind: "waiting" });
    clearTimeout(timer.current);
    timer.current = setTimeout(() => void run(), delayMs);
  }, [enabled, delayMs, run]);

  useEffect(() => {
    const subscription = form.watch((_values, { name }) => {
      // A reset (no field) is the form being loaded, not typing.
      if (name !== undefined) saveSoon();
    });
    return () => {
      subscription.unsubscribe();
      clearTimeout(timer.current);
    };
  }, [form, saveSoon]);

  // A copy put back after a lost session goes to the server as soon as it can.
  useEffect(() => {
    if (restoredAt) saveSoon();
  }, [restoredAt, saveSoon]);

  return state;
}

/** Why `schema` refuses `values`, in its first reason's words; null when it takes them. */
export function firstRefusal(schema: z.ZodType, values: unknown): string | null {
  const checked = schema.safeParse(values);
  return checked.success ? null : (checked.error.issues[0]?.message ?? null);
}

/** `write`, each call run once the one before it has finished, so saves never cross. */
export function useOneAtATime<Args extends unknown[], R>(
  write: (...args: Args) => Promise<R>,
): (...args: Args) => Promise<R> {
  const queue = useRef<Promise<unknown>>(Promise.resolve());
  return useCallback(
    (...args: Args) => {
      const next = queue.current.then(() => write(...args));
      queue.current = next;
      return next;
    },
    [write],
  );
}
