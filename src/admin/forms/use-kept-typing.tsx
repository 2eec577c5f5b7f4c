/**
 * Nothing typed into a console form is lost. While the form differs from
 * what was last loaded or saved, a copy of it is kept in this browser
 * (typed-copies.ts); when the form opens again — after the session ended
 * and the person signed in again, after a crash, the next morning — the copy
 * is put back and the person is told, with a way to throw it away. Leaving
 * the form for another console screen asks first; closing or reloading the
 * tab asks the browser's own question.
 *
 * The form says what "saved" means: call `loaded(values)` when it shows what
 * the server holds, and `saved(values)` when the server took them.
 */
import { type ReactNode, useCallback, useEffect, useRef, useState } from "react";
import type { FieldValues, UseFormReturn } from "react-hook-form";
import { useBlocker } from "react-router";
import { useMe } from "../auth/session.tsx";
import { AlertDialog } from "../components/AlertDialog.tsx";
import { copyKey, dropCopy, readCopy, writeCopy } from "./typed-copies.ts";

/** Typing is copied this long after the last keystroke, not on every one. */
const COPY_DELAY_MS = 250;

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export interface KeptTyping<T> {
  /** When the copy put back into the form was typed; null when nothing was put back. */
  restoredAt: Date | null;
  /** Throws the restored copy away: the form shows what the server holds again. */
  discard(): void;
  /** The form now shows what the server holds (first load, or someone else's version). */
  loaded(values: T): void;
  /** The server took these values; anything typed since stays kept. */
  saved(values: T): void;
  /** Whether the form holds anything the server does not. */
  unsaved(): boolean;
  /** The question asked before leaving the form; render it anywhere in the form's screen. */
  leaveDialog: ReactNode;
}

export function useKeptTyping<T extends FieldValues>(
  form: UseFormReturn<T>,
  /** Names the form and its record, e.g. "issue:12"; one copy per person and name. */
  name: string,
  now: () => Date = () => new Date(),
): KeptTyping<T> {
  const key = copyKey(useMe().id, name);
  const baseline = useRef<T>(form.getValues());
  const [restoredAt, setRestoredAt] = useState<Date | null>(null);

  const unsaved = useCallback(() => !same(form.getValues(), baseline.current), [form]);

  // Put back what was typed here before and never saved (once, when the form opens).
  useEffect(() => {
    const copy = readCopy<T>(key);
    if (!copy) return;
    if (same(copy.values, baseline.current)) {
      dropCopy(key);
      return;
    }
    form.reset(copy.values, { keepDefaultValues: true });
    setRestoredAt(new Date(copy.at));
  }, [key, form]);

  // Copy every change the person makes, a moment after they stop typing.
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const copyNow = () => {
      timer = undefined;
      const values = form.getValues();
      if (same(values, baseline.current)) dropCopy(key);
      else writeCopy(key, values, now());
    };
    const subscription = form.watch((_values, { name: field }) => {
      // A reset (no field) is the form being loaded or restored, not typing.
      if (field === undefined) return;
      clearTimeout(timer);
      timer = setTimeout(copyNow, COPY_DELAY_MS);
    });
    const copyBeforeLeaving = () => {
      if (timer === undefined) return;
      clearTimeout(timer);
      copyNow();
    };
    window.addEventListener("pagehide", copyBeforeLeaving);
    return () => {
      subscription.unsubscribe();
      window.removeEventListener("pagehide", copyBeforeLeaving);
      // Unmounted mid-typing (the session ended): keep the last keystrokes too.
      copyBeforeLeaving();
    };
  }, [form, key, now]);

  // Closing or reloading the tab with unsaved typing: the browser asks.
  useEffect(() => {
    const ask = (event: BeforeUnloadEvent) => {
      if (unsaved()) event.preventDefault();
    };
    window.addEventListener("beforeunload", ask);
    return () => window.removeEventListener("beforeunload", ask);
  }, [unsaved]);

  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      currentLocation.pathname !== nextLocation.pathname && unsaved(),
  );

  const settle = useCallback(
    (values: T) => {
      baseline.current = values;
      if (same(form.getValues(), values)) dropCopy(key);
    },
    [form, key],
  );

  const discard = useCallback(() => {
    dropCopy(key);
    form.reset(baseline.current);
    setRestoredAt(null);
  }, [form, key]);

  const loaded = useCallback(
    (values: T) => {
      settle(values);
      setRestoredAt(null);
    },
    [settle],
  );

  const leaveDialog = (
    <AlertDialog
      open={blocker.state === "blocked"}
      title="Leave without saving?"
      text={<p>Your changes to this form have not been saved.</p>}
      onClose={() => blocker.reset?.()}
    >
      <div className="dialog-actions">
        <button type="button" className="button" onClick={() => blocker.reset?.()}>
          Keep editing
        </button>
        <button
          type="button"
          className="button button-danger"
          onClick={() => {
            form.reset(baseline.current);
            dropCopy(key);
            blocker.proceed?.();
          }}
        >
          Discard changes and leave
        </button>
      </div>
    </AlertDialog>
  );

  return { restoredAt, discard, loaded, saved: settle, unsaved, leaveDialog };
}

/**
 * A form showing one version of a record: when a newer version arrives (the
 * form's own save, someone else's loaded on request, an earlier one restored),
 * the form shows it. The version it opened with is left alone, so a copy
 * useKeptTyping put back when the form opened stays.
 */
export function useShowsVersion<T extends FieldValues>(
  form: UseFormReturn<T>,
  kept: Pick<KeptTyping<T>, "loaded">,
  version: number,
  valuesOf: () => T,
): void {
  const shown = useRef(version);
  const latest = useRef(valuesOf);
  latest.current = valuesOf;
  const { reset } = form;
  const { loaded } = kept;
  useEffect(() => {
    if (version === shown.current) return;
    shown.current = version;
    const values = latest.current();
    reset(values);
    loaded(values);
  }, [version, reset, loaded]);
}
