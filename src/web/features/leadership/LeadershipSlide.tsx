/**
 * What one leadership slide shows: the photo, the name, the title and the
 * bio. Shared by the carousel and by the placeholder that holds its place
 * while the carousel's code loads, so the two are the same height and
 * nothing below moves when one replaces the other.
 */
import type { TeamMember } from "../../../shared/content.ts";

export function LeadershipSlideContent({ member }: { member: TeamMember }) {
  return (
    <>
      <img
        className="leadership-slide__photo"
        src={`/images/pictures/${member.imagePath}`}
        alt="" // the name is the heading right under it: said once, not twice
        width={480}
        height={600}
        loading="lazy"
        decoding="async"
      />
      <div className="leadership-slide__body">
        <h3 className="leadership-slide__name">{member.fullname}</h3>
        <p className="leadership-slide__title">{member.title}</p>
        <p className="leadership-slide__bio">{member.bio}</p>
      </div>
    </>
  );
}
