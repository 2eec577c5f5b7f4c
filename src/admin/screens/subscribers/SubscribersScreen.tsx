/** The subscribers area (filled in by the subscribers work of issue 9). */
export default function SubscribersScreen() {
  return <h1>Subscribers</h1>;
}
