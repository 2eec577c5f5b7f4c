/**
 * One record: its form, and beside it its versions. A new record has only
 * the form; once created it opens here as version 1, and from then on what
 * is typed is its draft (DraftForm.tsx), which the site shows once published.
 */
import { useState } from "react";
import { Link, useLocation, useNavigate } from "react-router";
import type { Entry, ListSpec } from "../../../shared/admin/content.ts";
import type { Draft } from "../../../shared/admin/content-drafts.ts";
import { caseStudyPath } from "../../../shared/routes.ts";
import { read } from "../../api/client.ts";
import { useResource } from "../../api/use-resource.ts";
import { Notice } from "../../components/Notice.tsx";
import { DraftForm } from "./DraftForm.tsx";
import { EntryForm } from "./EntryForm.tsx";
import { titleOf } from "./format.ts";
import { PreviewLink } from "./PreviewLink.tsx";
import { VersionsPanel } from "./VersionsPanel.tsx";

/** What the screen was opened with: a message from the screen before it (a record just created). */
interface ArrivalState {
  notice?: string;
}

export function EditScreen({ spec, id }: { spec: ListSpec; id: number | null }) {
  const navigate = useNavigate();
  const arrival = (useLocation().state ?? {}) as ArrivalState;
  const params = id === null ? null : { list: spec.list, id };
  const record = useResource(params && read("content.read", { params }));
  const drafted = useResource(params && read("content.draft", { params }));
  const entry = record.data ?? null;
  /** The record's draft; undefined until loaded. */
  const draft = drafted.data?.draft;
  const loadFailure = record.error ?? drafted.error;
  /** Bumped after every write, so the versions panel loads again. */
  const [writes, setWrites] = useState(0);

  function load() {
    record.reload();
    drafted.reload();
  }

  const setDraft = (next: Draft | null) => drafted.setData({ draft: next });

  function written(saved: Entry) {
    if (id === null) {
      navigate(`/content/${spec.list}/${saved.id}`, {
        replace: true,
        state: {
          notice: saved.hidden
            ? `Created, and hidden: the site leaves this ${spec.singular} out until you show it.`
            : `Created. The site shows this ${spec.singular} now.`,
        },
      });
      return;
    }
    record.setData(saved);
    setWrites((n) => n + 1);
    // Hiding or showing moves a draft on to the new version: read it again.
    drafted.reload();
  }

  const listPath = `/content/${spec.list}`;
  const preview =
    spec.list === "case-studies" && entry
      ? caseStudyPath(entry.fields.slug ?? "")
      : spec.publicPath;
  const heading = id === null ? `New ${spec.singular}` : entry ? titleOf(spec, entry.fields) : "…";

  return (
    <section aria-labelledby="content-edit-title" className="content-edit">
      <p className="content-back">
        <Link to={listPath}>← {spec.label}</Link>
      </p>
      <div className="content-head">
        <div>
          <h2 id="content-edit-title">{heading}</h2>
          {entry ? (
            <p className="content-meta">
              {spec.singular[0]?.toUpperCase()}
              {spec.singular.slice(1)} · version {entry.version}
              {entry.hidden ? (
                <>
                  {" "}
                  · <span className="badge badge-hidden">Hidden</span>
                </>
              ) : null}
            </p>
          ) : null}
        </div>
        <div className="content-head__actions">
          <PreviewLink path={preview} label={id === null ? undefined : "View on the site"} />
        </div>
      </div>
      {arrival.notice && entry?.version === 1 ? (
        <Notice tone="success">{arrival.notice}</Notice>
      ) : null}
      {loadFailure ? <Notice tone="error">{loadFailure}</Notice> : null}
      {id === null ? (
        <div className="content-edit__layout">
          <EntryForm spec={spec} onCreated={written} />
        </div>
      ) : entry && draft !== undefined ? (
        <div className="content-edit__layout">
          <DraftForm
            spec={spec}
            entry={entry}
            draft={draft}
            onDraft={setDraft}
            onWritten={written}
            onReload={load}
          />
          <VersionsPanel spec={spec} entry={entry} writes={writes} onRestored={written} />
        </div>
      ) : loadFailure ? null : (
        <p className="loading" role="status">
          Loading…
        </p>
      )}
    </section>
  );
}
