/**
 * The part of the leadership section that ships with the route itself: what
 * holds the carousel's place while its lazily loaded code arrives. It shows
 * the same slides, without the controls that need that code, so it takes the
 * carousel's exact height: an anchor further down (Our Ethos) that the page
 * scrolls to meanwhile is not pushed away when the carousel takes over. Its
 * layout comes from carousel-layout.ts, inlined with the site's styles by root.tsx.
 */
import type { TeamMember } from "../../../shared/content.ts";
import { TRACK_CLASS } from "./carousel-layout.ts";
import { LeadershipSlideContent } from "./LeadershipSlide.tsx";

export function LeadershipPlaceholder({ members }: { members: TeamMember[] }) {
  if (members.length === 0) return null;
  return (
    <div className="leadership-carousel leadership-carousel--placeholder" aria-hidden="true">
      <div className={TRACK_CLASS}>
        {members.map((member) => (
          <div key={member.fullname} className="leadership-slide">
            <LeadershipSlideContent member={member} />
          </div>
        ))}
      </div>
      <div className="leadership-controls" />
    </div>
  );
}
