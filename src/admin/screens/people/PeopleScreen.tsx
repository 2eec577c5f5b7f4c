/** The people area (filled in by the people work of issue 9). */
export default function PeopleScreen() {
  return <h1>People</h1>;
}
