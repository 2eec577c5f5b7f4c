/**
 * The site facts: what the pages say about the firm
 * outside its lists (the mission, the two invitations, the contact address,
 * the LinkedIn link), in one form beside its versions, with the public page
 * one click away.
 */
import { useState } from "react";
import {
  SITE_FACT_FIELDS,
  SITE_FACTS_LABEL,
  SITE_FACTS_PREVIEW,
  type SiteFactsAnswer,
} from "../../../shared/admin/site-facts.ts";
import { api, read } from "../../api/client.ts";
import { useResource } from "../../api/use-resource.ts";
import { Notice } from "../../components/Notice.tsx";
import { PreviewLink } from "./PreviewLink.tsx";
import { SiteFactsForm } from "./SiteFactsForm.tsx";
import { VersionHistory } from "./VersionHistory.tsx";

const labelOf = (field: string) =>
  SITE_FACT_FIELDS.find((candidate) => candidate.name === field)?.label ?? field;

export function SiteFactsScreen() {
  const {
    data: facts,
    setData: setFacts,
    error: loadFailure,
    reload: load,
  } = useResource(read("siteFacts.read"));
  /** Bumped after every write, so the versions load again. */
  const [writes, setWrites] = useState(0);

  /** Someone else saved: their facts in the form, and their version in the list. */
  function reload() {
    load();
    setWrites((n) => n + 1);
  }

  function written(saved: SiteFactsAnswer) {
    setFacts(saved);
    setWrites((n) => n + 1);
  }

  async function restore(version: number) {
    if (!facts) throw new Error("The site facts have not loaded yet.");
    const restored = await api.call("siteFacts.restore", {
      params: { version },
      body: { version: facts.version },
    });
    written(restored);
    return restored.version;
  }

  return (
    <section aria-labelledby="site-facts-title" className="content-edit">
      <div className="content-head">
        <div>
          <h2 id="site-facts-title">{SITE_FACTS_LABEL}</h2>
          {facts ? <p className="content-meta">Version {facts.version}</p> : null}
        </div>
        <div className="content-head__actions">
          <PreviewLink path={SITE_FACTS_PREVIEW} />
        </div>
      </div>
      <p className="content-help">
        What the pages say about the firm beside its lists. A save shows on the site at once.
      </p>
      {loadFailure ? <Notice tone="error">{loadFailure}</Notice> : null}
      {facts ? (
        <div className="content-edit__layout">
          <SiteFactsForm facts={facts} onWritten={written} onReload={reload} />
          <VersionHistory
            versions={read("siteFacts.versions")}
            current={facts.version}
            writes={writes}
            labelOf={labelOf}
            restore={restore}
          />
        </div>
      ) : loadFailure ? null : (
        <p className="loading" role="status">
          Loading…
        </p>
      )}
    </section>
  );
}
