/**
 * The issue as it will be read, from its last saved version: the e-mail at a
 * desktop mail program's width and at a phone's, and the archive page it
 * becomes, each the server's own rendering in a frame (served with its own
 * sandboxing policy); and the e-mail's plain-text part. A save reloads them.
 */
import { useId, useState } from "react";
import { type IssueDetail, NEWSLETTER_PATHS } from "../../../shared/admin/newsletter.ts";
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
            path={view.path(issue.id)}
          />
        ) : (
          <iframe
            // A new version is a new frame, which loads the preview again.
            key={`${view.name}-${issue.version}`}
            className={`preview-frame preview-frame--${view.name}`}
            title={view.title}
            src={view.path(issue.id)}
          />
        )}
      </section>
    </section>
  );
}
