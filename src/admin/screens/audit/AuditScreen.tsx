/** The audit area (filled in by the audit work of issue 9). */
export default function AuditScreen() {
  return <h1>Audit</h1>;
}
