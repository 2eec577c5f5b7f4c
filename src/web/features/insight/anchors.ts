/**
 * The footer's newsletter section (its subscribe form is on every page): the
 * archive's invitations to subscribe lead there, rather than showing a second
 * form. The footer gives the section this id.
 */
export const NEWSLETTER_ANCHOR = "newsletter";
