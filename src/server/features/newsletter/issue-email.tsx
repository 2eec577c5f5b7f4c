/**
 * An Insight issue as an e-mail: a 600 px column, centred, that narrows with
 * the screen (fluid width, max-width), built from react-email's table-based
 * components so that Outlook and webmail lay it out alike.
 */
import { Heading } from "@react-email/heading";
import { Section } from "@react-email/section";
import { COLORS } from "../../../shared/design-tokens.ts";
import { EMAIL_COLUMN, EMAIL_FONT } from "../../platform/markdown/markdown.ts";
import { EmailPage } from "../../platform/outbox/layout.tsx";
import { IssueFooter } from "./issue-footer.tsx";
import { IssueHeader } from "./issue-header.tsx";

export interface IssueEmailProps {
  title: string;
  /** The inbox's preview line, hidden in the message itself. */
  summary: string;
  /** The issue's page on the site: the view-in-browser link. */
  issueUrl: string;
  /** The issue's body, already e-mail-safe HTML (platform/markdown/markdown.ts). */
  bodyHtml: string;
  unsubscribeUrl: string;
}

export function IssueEmail({
  title,
  summary,
  issueUrl,
  bodyHtml,
  unsubscribeUrl,
}: IssueEmailProps) {
  return (
    <EmailPage title={title} preview={summary}>
      <IssueHeader issueUrl={issueUrl} />
      <Section style={{ padding: `0 ${EMAIL_COLUMN.padding}px` }}>
        <Heading
          as="h1"
          style={{
            margin: "16px 0 24px",
            fontFamily: EMAIL_FONT,
            fontSize: "28px",
            lineHeight: "1.25",
            fontWeight: "bold",
            color: COLORS.ink,
          }}
        >
          {title}
        </Heading>
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: the Markdown renderer's output, which escapes raw HTML and checks every link */}
        <div dangerouslySetInnerHTML={{ __html: bodyHtml }} />
      </Section>
      <IssueFooter unsubscribeUrl={unsubscribeUrl} />
    </EmailPage>
  );
}
