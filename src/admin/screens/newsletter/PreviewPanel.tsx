/**
 * The issue as it will be read, from its last saved version: the e-mail at a
 * desktop mail program's width and at a phone's, and the archive page it
 * becomes, each the server's own rendering in a frame (served with its own
 * sandboxing policy); and the e-mail's plain-text part. A save reloads them.
 * An issue with merge fields is read with their fallbacks, or as one of the
 * newest named subscribers would read it, its Subject too.
 */
import { useId, useState } from "react";
import { type IssueDetail, NEWSLETTER_PATHS } from "../../../shared/admin/newsletter.ts";
import { fullName } from "../../../shared/admin/subscribers.ts";
import { fillMergeFields, hasMergeFields } from "../../../shared/merge-fields.ts";
import { read, withQuery } from "../../api/client.ts";
import { useResource } from "../../api/use-resource.ts";
import { PlainTextPreview } from "./PlainTextPreview.tsx";

const VIEWS = [
  {
    name: "desktop",
    label: "Desktop",
    title: "The e-mail at a desktop mail program's width",
    path: NEWSLETTER_PATHS.emailPreview,
  },
  {
    name: "phone",
    label: "Phone",
    title: "The e-mail at a phone's width",
    path: NEWSLETTER_PATHS.emailPreview,
  },
  {
    name: "web",
    label: "Web page",
    title: "The issue's page in the archive on the site",
    path: NEWSLETTER_PATHS.webPreview,
  },
  {
    name: "text",
    label: "Plain text",
    title: "The e-mail's plain-text part",
    path: NEWSLETTER_PATHS.textPreview,
  },
] as const;
type ViewName = (typeof VIEWS)[number]["name"];

/** As narrow as newsletter.css draws the phone's frame at the screen's width. */
const NARROW_SCREEN = "(max-width: 600px)";

interface PreviewPanelProps {
  issue: IssueDetail;
  /** The form has changes the preview does not show yet. */
  unsaved?: boolean;
  /** Saves them, which reloads the preview. */
  onSave?(): void;
}

export function PreviewPanel({ issue, unsaved = false, onSave }: PreviewPanelProps) {
  // On a phone the e-mail is first shown as a phone shows it: a desktop's width would not fit.
  const [shown, setShown] = useState<ViewName>(() =>
    window.matchMedia(NARROW_SCREEN).matches ? "phone" : "desktop",
  );
  const group = useId();
  const view = VIEWS.find((candidate) => candidate.name === shown) ?? VIEWS[0];
  const usesFields = [issue.title, issue.summary, issue.body].some(hasMergeFields);
  const readers = useResource(usesFields ? read("newsletter.previewReaders") : null);
  const [readerId, setReaderId] = useState("");
  const reader = readers.data?.items.find((each) => String(each.id) === readerId);
  // The archive page has no reader: it always shows the fallbacks.
  const src =
    reader && view.name !== "web"
      ? withQuery(view.path(issue.id), { as: reader.id })
      : view.path(issue.id);

  return (
    <section className="panel preview-panel" aria-labelledby={`${group}-title`}>
      <div className="preview-panel__head">
        <h2 id={`${group}-title`}>Preview</h2>
        <fieldset className="segmented">
          <legend className="visually-hidden">Show the preview as</legend>
          {VIEWS.map((candidate) => (
            <label key={candidate.name} className="segmented__option">
              <input
                type="radio"
                name={group}
                value={candidate.name}
                checked={candidate.name === shown}
                onChange={() => setShown(candidate.name)}
              />
              <span>{candidate.label}</span>
            </label>
          ))}
        </fieldset>
      </div>
      <p className="preview-panel__note">
        {unsaved ? (
          <>
            The preview shows the last saved version, without your unsaved changes.{" "}
            <button type="button" className="button button-quiet" onClick={onSave}>
              Save and refresh the preview
            </button>
          </>
        ) : (
          `Version ${issue.version}, as saved.`
        )}
      </p>
      {usesFields ? (
        <div className="preview-reader">
          <label className="preview-reader__label" htmlFor={`${group}-reader`}>
            Read it as
          </label>
          <select
            id={`${group}-reader`}
            value={readerId}
            onChange={(event) => setReaderId(event.target.value)}
            aria-describedby={`${group}-subject`}
          >
            <option value="">A subscriber without a name: the fallbacks</option>
            {readers.data?.items.map((each) => (
              <option key={each.id} value={each.id}>
                {fullName(each.firstName, each.lastName)} ({each.email})
              </option>
            ))}
          </select>
          <p className="preview-reader__subject" id={`${group}-subject`}>
            <span>Subject:</span> {fillMergeFields(issue.title, reader)}
          </p>
        </div>
      ) : null}
      <section
        className={`preview-stage preview-stage--${view.name}`}
        aria-label={view.title}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a frame wider than a phone scrolls sideways in this region, which must be focusable to be scrolled without a pointer
        tabIndex={0}
      >
        {view.name === "text" ? (
          <PlainTextPreview
            // A new version is loaded anew.
            key={issue.version}
            path={src}
          />
        ) : (
          <iframe
            // A new version, or another reader, is a new frame, which loads the preview again.
            key={`${view.name}-${issue.version}-${readerId}`}
            className={`preview-frame preview-frame--${view.name}`}
            title={view.title}
            src={src}
          />
        )}
      </section>
    </section>
  );
}
