// Placeholder while the issue-11 helpers build this route; replaced before commit.
export default function Placeholder() {
  return null;
}
