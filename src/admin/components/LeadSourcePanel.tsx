/**
 * Where a lead came from (an inquiry or a subscriber): the visit's entry
 * page, the site that referred it, the channel the server made of them, and
 * the campaign its UTM tags name; "Unknown" when the lead brought none (sent
 * before sources were kept, or with the browser's storage and Referer off).
 */
import {
  campaignText,
  channelLabel,
  type LeadSourceDetail,
  SOURCE_TEXTS,
} from "../../shared/admin/lead-source.ts";

export function LeadSourcePanel({ source, id }: { source: LeadSourceDetail; id: string }) {
  return (
    <section className="panel lead-source" aria-labelledby={id}>
      <h2 id={id}>{SOURCE_TEXTS.heading}</h2>
      {source ? (
        <dl className="source-fields">
          <div>
            <dt>{SOURCE_TEXTS.entryPage}</dt>
            <dd>{source.entryPage ?? SOURCE_TEXTS.unknown}</dd>
          </div>
          <div>
            <dt>{SOURCE_TEXTS.referrer}</dt>
            <dd>{source.referrer ?? SOURCE_TEXTS.none}</dd>
          </div>
          <div>
            <dt>{SOURCE_TEXTS.channel}</dt>
            <dd>{channelLabel(source.channel)}</dd>
          </div>
          <div>
            <dt>{SOURCE_TEXTS.campaign}</dt>
            <dd>{campaignText(source) ?? SOURCE_TEXTS.none}</dd>
          </div>
        </dl>
      ) : (
        <p className="source-unknown">{SOURCE_TEXTS.unknown}</p>
      )}
    </section>
  );
}
