export default function WedoPage() {
  return <h1>What We Do</h1>;
}
