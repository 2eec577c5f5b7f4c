/**
 * The values the site's look and behaviour are fixed to: its accent, its
 * dialog texts, its timings. Each lives here once and is imported wherever
 * it is used; changing one changes what every visitor sees.
 */

export const ACCENT_COLOR = "#ff7300";
export const COPYRIGHT_YEAR = 2024;

/** How long an anchor link keeps retrying to find its target. */
export const ANCHOR_SCROLL_RETRY_MS = 10_000;
/** How long a lazily loaded part of the site may take before it fails. */
export const LAZY_LOAD_TIMEOUT_MS = 120_000;
/** Share of a section that must be visible before it fades in. */
export const FADE_IN_THRESHOLD = 0.2;
/** Scroll animation defaults and the methodology cascade. */
export const SCROLL_ANIMATION = { durationMs: 1000, damping: 0.5 } as const;
export const METHODOLOGY_CASCADE_DAMPING = 0.2;

/** Success status range for requests. */
export const SUCCESS_STATUS = { min: 200, max: 299 } as const;

/** Cross-site request token cookie and header. */
export const XSRF_COOKIE = "XSRF-TOKEN";
export const XSRF_HEADER = "X-XSRF-TOKEN";

/** Texts of the dialogs, kept exactly as the product shows them. */
export const DIALOG = {
  successTitle: "Thank you!",
  failureTitle: "Oops...",
  subscribed: "Your're subscribed successfully",
  /** In place of `subscribed` when the address is to be confirmed by its e-mail's link (double opt-in). */
  checkInbox: "Check your inbox to confirm",
  somethingWrong: "Something went wrong!",
  inquiryReceived: "Thank you! Your submission has been received!",
  inquiryFailed: "Oops! Something went wrong while submitting the form.",
  confirm: "OK",
} as const;

/**
 * Added to the dialogs' texts: what a form adds to the failure text when fields
 * were refused (each field's reason is shown next to it).
 */
export const FORM_TEXTS = {
  checkFields: "Please correct what is marked below and send the form again.",
} as const;

/** Heading of the default error screen. */
export const ERROR_SCREEN_HEADING = "Unexpected Application Error!";

/**
 * Leadership carousel. Slides per view and spacing (px) as the screen
 * widens; only the five-per-view default is fixed, the breakpoint widths are ours (ADR 007).
 */
export const CAROUSEL = {
  default: { slidesPerView: 5, spaceBetween: 10 },
  breakpoints: [
    { minWidth: 0, slidesPerView: 1, spaceBetween: 10 },
    { minWidth: 640, slidesPerView: 2, spaceBetween: 20 },
    { minWidth: 1024, slidesPerView: 3, spaceBetween: 40 },
    { minWidth: 1440, slidesPerView: 3, spaceBetween: 20 },
  ],
} as const;
