/** An e-mail address that wraps before its "@" rather than anywhere in a word. */
export function BreakableAddress({ email }: { email: string }) {
  const at = email.lastIndexOf("@");
  if (at <= 0) return email;
  return (
    <>
      {email.slice(0, at)}
      <wbr />
      {email.slice(at)}
    </>
  );
}
