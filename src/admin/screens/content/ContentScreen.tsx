/** The content area (filled in by the content work of issue 9). */
export default function ContentScreen() {
  return <h1>Content</h1>;
}
