/**
 * The versions of one record (a list's entry, or the site facts), newest
 * first: who saved each and when, what it changed, what it said, and a
 * button that restores it (saved as a new version, so nothing is ever lost).
 */
import { type ReactNode, useEffect, useState } from "react";
import type { Read } from "../../api/client.ts";
import { failureText } from "../../api/refusal.ts";
import { useResource } from "../../api/use-resource.ts";
import { Notice } from "../../components/Notice.tsx";
import { formatMoment } from "./format.ts";

/** A version as the API lists it; `hidden` only for records a list can hide. */
export interface HistoryVersion {
  version: number;
  author: string;
  createdAt: string;
  fields: Record<string, string>;
  hidden?: boolean;
}

interface VersionHistoryProps {
  /** The read that lists the record's versions. */
  versions: Read<"content.versions" | "siteFacts.versions">;
  /** The version the record is at now. */
  current: number;
  /** Changes after every write, to load the versions again. */
  writes: number;
  labelOf(field: string): string;
  /** How a field's value is shown; the text by default. */
  renderValue?(field: string, value: string, version: number): ReactNode;
  /** Restores `version`; resolves with the version it was saved as. */
  restore(version: number): Promise<number>;
}

/** What a version changed from the one before it. */
function changesOf(
  version: HistoryVersion,
  before: HistoryVersion | undefined,
  labelOf: (field: string) => string,
): string {
  if (!before) return "First version";
  const changed = Object.keys(version.fields)
    .filter((field) => version.fields[field] !== before.fields[field])
    .map(labelOf);
  if (version.hidden !== before.hidden) changed.push(version.hidden ? "Hidden" : "Shown");
  return changed.length ? `Changed: ${changed.join(", ")}` : "No change";
}

export function VersionHistory({
  versions: request,
  current,
  writes,
  labelOf,
  renderValue = (_field, value) => value,
  restore,
}: VersionHistoryProps) {
  const { data, error, reload } = useResource(request);
  const [outcome, setOutcome] = useState<{ tone: "success" | "error"; text: string } | null>(null);
  const [restoring, setRestoring] = useState<number | null>(null);

  useEffect(() => {
    if (writes > 0) reload();
  }, [writes, reload]);

  async function restoreVersion(version: number) {
    setOutcome(null);
    setRestoring(version);
    try {
      const savedAs = await restore(version);
      setOutcome({
        tone: "success",
        text: `Version ${version} is restored as version ${savedAs}. The site shows it now.`,
      });
    } catch (failure) {
      setOutcome({ tone: "error", text: failureText(failure) });
    } finally {
      setRestoring(null);
    }
  }

  const versions: HistoryVersion[] = data?.versions ?? [];
  return (
    <section className="panel versions" aria-labelledby="versions-title">
      <h3 id="versions-title">Versions</h3>
      {outcome ? <Notice tone={outcome.tone}>{outcome.text}</Notice> : null}
      {error ? <Notice tone="error">{error}</Notice> : null}
      <ol className="versions__list">
        {versions.map((version, index) => {
          const isCurrent = version.version === current;
          return (
            <li key={version.version} className="version">
              <p className="version__head">
                <strong>Version {version.version}</strong>
                {isCurrent ? <span className="badge">Current</span> : null}
              </p>
              <p className="version__meta">
                {formatMoment(version.createdAt)} · {version.author}
              </p>
              <p className="version__changes">{changesOf(version, versions[index + 1], labelOf)}</p>
              <details className="version__details">
                <summary>What it said</summary>
                <dl>
                  {Object.entries(version.fields).map(([field, value]) => (
                    <div key={field}>
                      <dt>{labelOf(field)}</dt>
                      <dd>{renderValue(field, value, version.version)}</dd>
                    </div>
                  ))}
                  {version.hidden === undefined ? null : (
                    <div>
                      <dt>On the site</dt>
                      <dd>{version.hidden ? "Hidden" : "Shown"}</dd>
                    </div>
                  )}
                </dl>
              </details>
              {isCurrent ? null : (
                <button
                  type="button"
                  className="button"
                  disabled={restoring !== null}
                  onClick={() => restoreVersion(version.version)}
                >
                  {restoring === version.version
                    ? "Restoring…"
                    : `Restore version ${version.version}`}
                </button>
              )}
            </li>
          );
        })}
      </ol>
    </section>
  );
}
