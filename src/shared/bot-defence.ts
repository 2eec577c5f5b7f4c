/**
 * The names the two public forms, their client and the server share for the
 * defences against scripted posts (ADR 017): the honeypot field people never
 * see, the headers the forms send with JavaScript (the public API's form payloads
 * stay as they are), and the words the console counts them with.
 */

/** The honeypot's form field (without JavaScript): a name forms fillers like to fill. */
export const FORM_TRAP_FIELD = "website";
/** The honeypot's value when the form calls the API. */
export const FORM_TRAP_HEADER = "X-Form-Trap";
/** The CAPTCHA widget's answer when the form calls the API. */
export const CAPTCHA_HEADER = "X-Captcha-Response";

/** The key of a refused CAPTCHA answer among an answer's `fields`, shown next to the widget. */
export const CAPTCHA_FIELD = "captcha";

/** What a screen reader says should a visitor reach the honeypot anyway. */
export const FORM_TRAP_LABEL = "Leave this field empty (it is a trap for automated senders)";

/** The forms a trap guards, as the console counts them. */
export const DEFENDED_FORMS = ["inquiry", "subscription"] as const;
export type DefendedForm = (typeof DEFENDED_FORMS)[number];

/** Why a post was taken for a script's: the honeypot was filled, or it came too soon after its token. */
export const TRAP_REASONS = ["honeypot", "too-fast"] as const;
export type TrapReason = (typeof TRAP_REASONS)[number];
