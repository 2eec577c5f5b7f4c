export default function WeservePage() {
  return <h1>Who We Serve</h1>;
}
