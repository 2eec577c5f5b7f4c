/** The top of an Insight e-mail: the firm's name and the link to the issue's page. */
import { Link } from "@react-email/link";
import { Section } from "@react-email/section";
import { Text } from "@react-email/text";
import { COLORS } from "../../../shared/design-tokens.ts";
import { SITE } from "../../../shared/site.ts";
import { EMAIL_COLUMN, EMAIL_FONT } from "../../platform/markdown/markdown.ts";

export function IssueHeader({ issueUrl }: { issueUrl: string }) {
  return (
    <Section style={{ padding: `24px ${EMAIL_COLUMN.padding}px 8px` }}>
      <Text
        style={{
          margin: 0,
          fontFamily: EMAIL_FONT,
          fontSize: "18px",
          lineHeight: "24px",
          fontWeight: "bold",
          color: COLORS.ink,
        }}
      >
        {SITE.firmName}
      </Text>
      <Text
        style={{
          margin: "4px 0 0",
          fontFamily: EMAIL_FONT,
          fontSize: "13px",
          lineHeight: "20px",
          color: COLORS.inkSoft,
        }}
      >
        <Link href={issueUrl} style={{ color: COLORS.accentInk, textDecoration: "underline" }}>
          View this issue in your browser
        </Link>
      </Text>
    </Section>
  );
}
