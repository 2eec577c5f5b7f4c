/** The bottom of an Insight e-mail: why the reader receives it, how to stop, and who sends it. */
import { Hr } from "@react-email/hr";
import { Link } from "@react-email/link";
import { Section } from "@react-email/section";
import { Text } from "@react-email/text";
import { COLORS } from "../../../shared/design-tokens.ts";
import { SITE } from "../../../shared/site.ts";
import { EMAIL_COLUMN, EMAIL_FONT } from "../../platform/markdown/markdown.ts";

const small = {
  margin: "0 0 8px",
  fontFamily: EMAIL_FONT,
  fontSize: "13px",
  lineHeight: "20px",
  color: COLORS.inkSoft,
};

export function IssueFooter({ unsubscribeUrl }: { unsubscribeUrl: string }) {
  return (
    <Section style={{ padding: `8px ${EMAIL_COLUMN.padding}px 24px` }}>
      <Hr style={{ margin: "16px 0", border: 0, borderTop: `1px solid ${COLORS.line}` }} />
      <Text style={small}>
        You receive Insight because you subscribed on our website.{" "}
        <Link
          href={unsubscribeUrl}
          style={{ color: COLORS.accentInk, textDecoration: "underline" }}
        >
          Unsubscribe
        </Link>
      </Text>
      <Text style={small}>{SITE.firmName}</Text>
    </Section>
  );
}
