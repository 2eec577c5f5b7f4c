/** Where the newsletter area lives in the console, and what a screen passes to the next. */

/** The area's own path (layout/areas.ts), under the console's basename. */
export const NEWSLETTER_ROUTE = "/newsletter";

export const issueRoute = (id: number) => `${NEWSLETTER_ROUTE}/${id}`;

/** What a screen passes along when it sends the person to another: a message to show there. */
export interface ArrivalState {
  notice?: string;
}
