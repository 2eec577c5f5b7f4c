/**
 * What the server hands the pages' loaders when it renders them (React
 * Router's load context): the content, read from the database, and the
 * site's public origin for canonical addresses.
 */
import type { CaseStudy, ContentCategory, ContentItem, TeamMember } from "./content.ts";

export interface ContentReader {
  team(): Promise<TeamMember[]>;
  items(category: ContentCategory): Promise<ContentItem[]>;
  caseStudies(): Promise<CaseStudy[]>;
}

// A type, not an interface: React Router's AppLoadContext has an index
// signature, which only a type alias satisfies implicitly.
export type PageContext = {
  content: ContentReader;
  /** The site's public origin, e.g. "https://www.example.com" (PUBLIC_ORIGIN). */
  origin: string;
};

declare module "react-router" {
  interface AppLoadContext extends PageContext {}
}
