/**
 * An Insight issue as an e-mail: a 600 px column, centred, that narrows with
 * the screen (fluid width, max-width), built from react-email's table-based
 * components so that Outlook and webmail lay it out alike.
 */
import { Body } from "@react-email/body";
import { Container } from "@react-email/container";
import { Head } from "@react-email/head";
import { Heading } from "@react-email/heading";
import { Html } from "@react-email/html";
import { Preview } from "@react-email/preview";
import { Section } from "@react-email/section";
import { COLORS } from "../../../shared/design-tokens.ts";
import { EMAIL_COLUMN, EMAIL_FONT } from "../../platform/markdown/markdown.ts";
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
    <Html lang="en">
      <Head>
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{title}</title>
      </Head>
      <Body
        style={{
          margin: 0,
          padding: "24px 8px",
          backgroundColor: COLORS.paperWarm,
          fontFamily: EMAIL_FONT,
          color: COLORS.ink,
        }}
      >
        <Preview>{summary}</Preview>
        <Container
          style={{
            maxWidth: `${EMAIL_COLUMN.width}px`,
            backgroundColor: COLORS.paper,
            borderTop: `6px solid ${COLORS.accent}`,
          }}
        >
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
        </Container>
      </Body>
    </Html>
  );
}
