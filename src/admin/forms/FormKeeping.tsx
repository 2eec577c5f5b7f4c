/**
 * What a kept form tells the person: whether what they typed is saved
 * (useAutosave), and that an earlier, unsaved copy was put back
 * (useKeptTyping), with a way to throw it away.
 */
import type { AutosaveState } from "./use-autosave.ts";

const TIME = new Intl.DateTimeFormat("en-GB", { timeStyle: "short" });
const MOMENT = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short" });

const KEPT_HERE = "What you typed is kept in this browser.";

function autosaveText(state: AutosaveState, saved: string): string {
  switch (state.kind) {
    case "idle":
      return "";
    case "waiting":
      return "Unsaved changes";
    case "saving":
      return "Saving…";
    case "saved":
      return `${saved} at ${TIME.format(state.at)}`;
    case "not-saved":
      return `Not saved yet: ${state.reason} ${KEPT_HERE}`;
  }
}

/**
 * One polite line beside the save button; read out when it changes. `saved`
 * names what was saved where the form saves something other than the
 * record itself ("Draft saved").
 */
export function AutosaveStatus({
  state,
  saved = "Saved",
}: {
  state: AutosaveState;
  saved?: string;
}) {
  return (
    <span
      className={`autosave-status autosave-status--${state.kind}`}
      role="status"
      data-testid="autosave-status"
    >
      {autosaveText(state, saved)}
    </span>
  );
}

interface RestoredNoticeProps {
  at: Date;
  onDiscard(): void;
}

export function RestoredNotice({ at, onDiscard }: RestoredNoticeProps) {
  return (
    <div className="notice notice-success restored-notice" role="status">
      <p>Put back what you typed on {MOMENT.format(at)}, which had not been saved.</p>
      <button type="button" className="button button-quiet" onClick={onDiscard}>
        Discard it
      </button>
    </div>
  );
}
