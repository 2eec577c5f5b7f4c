export default function WearePage() {
  return <h1>Who We Are</h1>;
}
