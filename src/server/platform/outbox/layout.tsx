/**
 * The one way the site's e-mail is rendered: React e-mail components, built
 * on tables so that Outlook and webmail lay them out alike, rendered to
 * static XHTML (renderEmailHtml). React escapes every value a visitor typed;
 * oneLine folds one to a single line where it goes into a header or a
 * one-line position of the text part. The plain e-mails (inquiries,
 * subscriptions, accounts) share MailFrame; an Insight issue has its own
 * frame, rendered the same way.
 */
import { Body } from "@react-email/body";
import { Container } from "@react-email/container";
import { Head } from "@react-email/head";
import { Heading } from "@react-email/heading";
import { Html } from "@react-email/html";
import { Link } from "@react-email/link";
import { Preview } from "@react-email/preview";
import { Section } from "@react-email/section";
import { Text } from "@react-email/text";
import type { ReactElement, ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { COLORS } from "../../../shared/design-tokens.ts";
import { SITE } from "../../../shared/site.ts";
import { EMAIL_COLUMN, EMAIL_FONT } from "../markdown/markdown.ts";

/** Folds line breaks and any other control character (U+0085 breaks lines too) to spaces. */
export const oneLine = (value: string) => value.replace(/[\s\p{Cc}]+/gu, " ").trim();

/** A multi-line value's lines, whichever line breaks it was typed with. */
export const linesOf = (value: string) => value.split(/\r\n|[\n\r\u2028\u2029\u0085]/);

/** The doctype @react-email/render writes; renderToStaticMarkup writes none. */
const XHTML_DOCTYPE =
  '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">';

export function renderEmailHtml(email: ReactElement): string {
  return XHTML_DOCTYPE + renderToStaticMarkup(email);
}

const textStyle = {
  margin: "0 0 16px",
  fontFamily: EMAIL_FONT,
  fontSize: "16px",
  lineHeight: "1.6",
  color: COLORS.ink,
};

/**
 * Every e-mail's page: a 600 px column on the page's warm paper, under the
 * accent's rule, narrowing with the screen; `preview` is the inbox's
 * preview line, hidden in the message itself.
 */
export function EmailPage({
  title,
  preview,
  children,
}: {
  title: string;
  preview?: string;
  children: ReactNode;
}) {
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
        {preview === undefined ? null : <Preview>{preview}</Preview>}
        <Container
          style={{
            maxWidth: `${EMAIL_COLUMN.width}px`,
            backgroundColor: COLORS.paper,
            borderTop: `6px solid ${COLORS.accent}`,
          }}
        >
          {children}
        </Container>
      </Body>
    </Html>
  );
}

/** A plain e-mail: its text in one padded section, the firm's name at its foot. */
export function MailFrame({ title, children }: { title: string; children: ReactNode }) {
  return (
    <EmailPage title={title}>
      <Section style={{ padding: `32px ${EMAIL_COLUMN.padding}px` }}>
        {children}
        <Text style={{ ...textStyle, margin: "32px 0 0", fontSize: "13px", color: COLORS.inkSoft }}>
          {SITE.firmName}
        </Text>
      </Section>
    </EmailPage>
  );
}

export function MailHeading({ children }: { children: ReactNode }) {
  return (
    <Heading
      as="h1"
      style={{ ...textStyle, fontSize: "22px", lineHeight: "1.3", fontWeight: "bold" }}
    >
      {children}
    </Heading>
  );
}

export function Paragraph({ children, small }: { children: ReactNode; small?: boolean }) {
  return (
    <Text style={small ? { ...textStyle, fontSize: "13px", color: COLORS.inkSoft } : textStyle}>
      {children}
    </Text>
  );
}

export function MailLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <Link href={href} style={{ color: COLORS.accentInk, textDecoration: "underline" }}>
      {children}
    </Link>
  );
}
