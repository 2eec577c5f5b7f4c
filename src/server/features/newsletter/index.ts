/**
 * Insight, the newsletter: its issues, their sends and the copies' mail.
 * What the rest of the server may use of this feature.
 */
export { newsletterComposer } from "./composer.ts";
export { default } from "./plugin.ts";
export { renderIssue } from "./render.ts";
