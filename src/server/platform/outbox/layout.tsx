/**
 * The site's e-mail components: React e-mail's, built on tables so that
 * Outlook and webmail lay them out alike, and rendered, HTML and text alike,
 * by renderMail (render.ts). React escapes every value a visitor typed;
 * oneLine folds one to a single line where it goes into a header, OneLine
 * where it goes into the mail. The plain e-mails (inquiries, subscriptions,
 * accounts) share MailFrame; an Insight issue has its own frame.
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
import type { ReactNode } from "react";
import { COLORS } from "../../../shared/design-tokens.ts";
import { SITE } from "../../../shared/site.ts";
import { EMAIL_COLUMN, EMAIL_FONT } from "../markdown/markdown.ts";
import { UNWRAPPED_IN_TEXT } from "./render.ts";

/** Folds line breaks and any other control character (U+0085 breaks lines too) to spaces. */
export const oneLine = (value: string) => value.replace(/[\s\p{Cc}]+/gu, " ").trim();

/** A multi-line value's lines, whichever line breaks it was typed with. */
export const linesOf = (value: string) => value.split(/\r\n|[\n\r\u2028\u2029\u0085]/);

/** A value someone typed, within a sentence: on one line, and kept on its line in the text part. */
export function OneLine({ value }: { value: string }) {
  return <span {...UNWRAPPED_IN_TEXT}>{oneLine(value)}</span>;
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
