/**
 * A Mailchimp audience export for the import's benchmarks: its usual 22
 * columns, one row per address, CRLF line ends, as Mailchimp writes it.
 */
const HEADER =
  '"Email Address","First Name","Last Name","Address","Phone Number","MEMBER_RATING","OPTIN_TIME","OPTIN_IP","CONFIRM_TIME","CONFIRM_IP","LATITUDE","LONGITUDE","GMTOFF","DSTOFF","TIMEZONE","CC","REGION","LAST_CHANGED","LEID","EUID","NOTES","TAGS"';

/** The export of `emails`; `notes` fills each row's NOTES column (to make a file of a given size). */
export function mailchimpExport(emails: readonly string[], notes = ""): Buffer {
  const lines = emails.map(
    (email, n) =>
      `"${email}","Reader","Number ${n}","","",2,"2024-03-05 14:02:11","","2024-03-05 14:05:40","203.0.113.7","","","","","","GB","","2024-03-05 14:05:40",${n},"e${n}","${notes}",""`,
  );
  return Buffer.from([HEADER, ...lines].join("\r\n"));
}
