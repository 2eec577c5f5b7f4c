/** The account area (filled in by the account work of issue 9). */
export default function AccountScreen() {
  return <h1>Account</h1>;
}
