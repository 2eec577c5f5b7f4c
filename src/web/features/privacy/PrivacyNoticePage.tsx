/**
 * The privacy notice's page (/privacy): the firm's text, rendered by the
 * server from the Markdown the firm edits in the console (which lets no raw
 * HTML through), at the Insight issues' reading measure and with their
 * reading styles, then where to write with a question, from the contact
 * address the firm keeps in the same place.
 */
import type { PrivacyNotice } from "../../../shared/page-context.ts";
import { InsightStyles } from "../insight/InsightStyles.tsx";
import { IssueDate } from "../insight/IssueDate.tsx";

export function PrivacyNoticePage({ notice }: { notice: PrivacyNotice }) {
  return (
    <>
      <InsightStyles />
      <article className="insight-issue" aria-labelledby="privacy-title">
        <header className="insight-issue__header">
          <div className="insight-issue__measure">
            <p className="insight-issue__kicker">
              Last updated <IssueDate publishedAt={notice.updatedAt} />
            </p>
            <h1 id="privacy-title" className="insight-issue__title">
              Privacy notice
            </h1>
            <p className="insight-issue__summary">
              What we collect through this site, why, and what becomes of it.
            </p>
          </div>
        </header>
        <div
          className="insight-issue__measure insight-prose"
          // biome-ignore lint/security/noDangerouslySetInnerHtml: rendered from Markdown by the server, which lets no raw HTML through
          dangerouslySetInnerHTML={{ __html: notice.html }}
        />
        <section
          className="insight-issue__measure insight-prose privacy-contact"
          aria-labelledby="privacy-contact-title"
        >
          <h2 id="privacy-contact-title">Questions and requests</h2>
          <p>
            To ask what we hold about you, to correct it or to have it erased, write to{" "}
            <a href={`mailto:${notice.contactEmail}`}>{notice.contactEmail}</a>.
          </p>
        </section>
      </article>
    </>
  );
}
