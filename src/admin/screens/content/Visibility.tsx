/**
 * Whether the site shows the record. "Unpublish" is hiding it: it stays in
 * the console with its versions and its draft, and "Show on the site" brings
 * it back. Neither changes its text, so a draft stays a draft of it.
 */
import { useId, useState } from "react";
import type { Entry, ListSpec } from "../../../shared/admin/content.ts";
import { api } from "../../api/client.ts";
import { failureText } from "../../api/refusal.ts";
import { Notice } from "../../components/Notice.tsx";

interface VisibilityProps {
  spec: ListSpec;
  entry: Entry;
  onChanged(entry: Entry): void;
}

export function Visibility({ spec, entry, onChanged }: VisibilityProps) {
  const hintId = useId();
  const [failure, setFailure] = useState<string | null>(null);

  async function setHidden(hidden: boolean) {
    setFailure(null);
    try {
      onChanged(
        await api.call("content.setVisibility", {
          params: { list: spec.list, id: entry.id },
          body: { hidden, version: entry.version },
        }),
      );
    } catch (error) {
      setFailure(failureText(error));
    }
  }

  return (
    <div className="entry-visibility">
      {entry.hidden ? (
        <>
          <button
            type="button"
            className="button"
            aria-describedby={hintId}
            onClick={() => setHidden(false)}
          >
            Show on the site
          </button>
          <p className="field-hint" id={hintId}>
            Unpublished: the site leaves this {spec.singular} out until you show it again.
          </p>
        </>
      ) : (
        <>
          <button
            type="button"
            className="button button-quiet"
            aria-describedby={hintId}
            onClick={() => setHidden(true)}
          >
            Unpublish
          </button>
          <p className="field-hint" id={hintId}>
            Unpublish hides this {spec.singular} from the site. It stays here with its versions and
            its draft; “Show on the site” brings it back.
          </p>
        </>
      )}
      {failure ? <Notice tone="error">{failure}</Notice> : null}
    </div>
  );
}
