/**
 * A record's versions, newest first: who saved each and when, what it
 * changed, what it said, and a button that restores it (saved as a new
 * version, so nothing is ever lost).
 */
import { useEffect, useState } from "react";
import {
  CONTENT_PATHS,
  type Entry,
  IMAGE_LABELS,
  imageUrl,
  type ListSpec,
  type Version,
} from "../../../shared/admin/content.ts";
import { api } from "../../api/client.ts";
import { useResource } from "../../api/useResource.ts";
import { Notice } from "../../components/Notice.tsx";
import { formatMoment } from "./format.ts";

interface VersionsPanelProps {
  spec: ListSpec;
  entry: Entry;
  /** Changes after every write, to load the versions again. */
  writes: number;
  onRestored(entry: Entry): void;
}

function labelOf(spec: ListSpec, field: string): string {
  if (field === "imagePath" && spec.image) return IMAGE_LABELS[spec.image];
  return spec.fields.find((candidate) => candidate.name === field)?.label ?? field;
}

/** What a version changed from the one before it. */
function changesOf(spec: ListSpec, version: Version, before: Version | undefined): string {
  if (!before) return "First version";
  const changed = Object.keys(version.fields)
    .filter((field) => version.fields[field] !== before.fields[field])
    .map((field) => labelOf(spec, field));
  if (version.hidden !== before.hidden) changed.push(version.hidden ? "Hidden" : "Shown");
  return changed.length ? `Changed: ${changed.join(", ")}` : "No change";
}

export function VersionsPanel({ spec, entry, writes, onRestored }: VersionsPanelProps) {
  const { data, error, reload } = useResource<{ versions: Version[] }>(
    CONTENT_PATHS.versions(spec.list, entry.id),
  );
  const [outcome, setOutcome] = useState<{ tone: "success" | "error"; text: string } | null>(null);
  const [restoring, setRestoring] = useState<number | null>(null);

  useEffect(() => {
    if (writes > 0) reload();
  }, [writes, reload]);

  async function restore(version: number) {
    setOutcome(null);
    setRestoring(version);
    try {
      const restored = await api.post<Entry>(CONTENT_PATHS.restore(spec.list, entry.id, version), {
        version: entry.version,
      });
      setOutcome({
        tone: "success",
        text: `Version ${version} is restored as version ${restored.version}. The site shows it now.`,
      });
      onRestored(restored);
    } catch (failure) {
      setOutcome({
        tone: "error",
        text: failure instanceof Error ? failure.message : String(failure),
      });
    } finally {
      setRestoring(null);
    }
  }

  const versions = data?.versions ?? [];
  return (
    <section className="panel versions" aria-labelledby="versions-title">
      <h3 id="versions-title">Versions</h3>
      {outcome ? <Notice tone={outcome.tone}>{outcome.text}</Notice> : null}
      {error ? <Notice tone="error">{error}</Notice> : null}
      <ol className="versions__list">
        {versions.map((version, index) => {
          const current = version.version === entry.version;
          return (
            <li key={version.version} className="version">
              <p className="version__head">
                <strong>Version {version.version}</strong>
                {current ? <span className="badge">Current</span> : null}
              </p>
              <p className="version__meta">
                {formatMoment(version.createdAt)} · {version.author}
              </p>
              <p className="version__changes">{changesOf(spec, version, versions[index + 1])}</p>
              <details className="version__details">
                <summary>What it said</summary>
                <dl>
                  {Object.entries(version.fields).map(([field, value]) => (
                    <div key={field}>
                      <dt>{labelOf(spec, field)}</dt>
                      <dd>
                        {field === "imagePath" && spec.image ? (
                          <img
                            className={`version__picture version__picture--${spec.image}`}
                            src={imageUrl(spec.image, value)}
                            alt={`The ${IMAGE_LABELS[spec.image].toLowerCase()} of version ${version.version}`}
                          />
                        ) : (
                          value
                        )}
                      </dd>
                    </div>
                  ))}
                  <div>
                    <dt>On the site</dt>
                    <dd>{version.hidden ? "Hidden" : "Shown"}</dd>
                  </div>
                </dl>
              </details>
              {current ? null : (
                <button
                  type="button"
                  className="button"
                  disabled={restoring !== null}
                  onClick={() => restore(version.version)}
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
