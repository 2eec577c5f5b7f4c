/** The recovery codes, shown once right after the second factor is turned on. */
export function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  return (
    <div className="recovery">
      <h3 id="recovery-title">Your recovery codes</h3>
      <p>
        If you lose your phone, each of these codes signs you in once in place of a code from the
        app. Save them now, in your password manager or on paper: they are not shown again.
      </p>
      <ol className="recovery-codes" aria-labelledby="recovery-title">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <div>
        <button type="button" className="button button-primary" onClick={onDone}>
          I have saved them
        </button>
      </div>
    </div>
  );
}
