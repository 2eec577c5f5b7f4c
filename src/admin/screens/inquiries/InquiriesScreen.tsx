/** The inquiries area (filled in by the inquiries work of issue 9). */
export default function InquiriesScreen() {
  return <h1>Inquiries</h1>;
}
