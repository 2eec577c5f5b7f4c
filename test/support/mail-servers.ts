/**
 * Real mail servers on the loopback for the bounce tests: Debian's Postfix,
 * the relay whose delivery status notifications (DSNs) the bounce handling
 * must understand, and Dovecot, holding the bounce mailbox that the product
 * reads over IMAP. Each call starts a pair of its own in a fresh temporary
 * folder on ports the OS hands out, so test files in parallel processes never
 * meet; the packages' own system services and their ports are never used.
 *
 * Postfix receives every message for two domains. All of bounces.test lands
 * in the bounce mailbox, whatever the +suffix. In readers.test only the
 * `existing` addresses have a mailbox; any other recipient there is accepted
 * at SMTP time and then bounced by Postfix itself, so its DSN reaches the
 * envelope sender as a remote domain's bounce would. Mail to any other domain
 * is bounced too, so nothing ever leaves the machine.
 *
 * The settings are those of Postfix 3.x and Dovecot 2.3 (Debian 12).
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { accessSync, constants } from "node:fs";
import { chmod, chown, mkdir, mkdtemp, readFile, rm, utimes, writeFile } from "node:fs/promises";
import { connect, createServer } from "node:net";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { setTimeout as delay } from "node:timers/promises";

export interface MailLogin {
  user: string;
  pass: string;
}

export interface MailServers {
  /** Postfix's SMTP listener on 127.0.0.1 (accepts from loopback, no auth, no TLS). */
  smtp: { host: string; port: number };
  /** Dovecot's IMAP listener on 127.0.0.1 and the bounce mailbox's login. */
  imap: { host: string; port: number } & MailLogin;
  /** The login, on the same IMAP listener, of the one mailbox every existing reader's copy lands in. */
  readersLogin: MailLogin;
  /** The domain whose addresses (with any +suffix) all land in the bounce mailbox: set as the bounce address's domain. */
  bounceDomain: string;
  /** A domain Postfix accepts mail for, where only `existing` recipients exist; any other recipient there is bounced by Postfix with its own DSN to the envelope sender. */
  readersDomain: string;
  /** Postfix's log so far, for a failing test to show what became of a message. */
  maillog(): Promise<string>;
  stop(): Promise<void>;
}

const HOST = "127.0.0.1";
const BOUNCE_DOMAIN = "bounces.test";
const READERS_DOMAIN = "readers.test";
/** Both servers greet within a second or so; this only bounds a broken start. */
const START_LIMIT_MS = 15_000;
/** How long each server has to exit on SIGTERM before its processes are killed. */
const STOP_LIMIT_MS = 5_000;
/**
 * Debian's nobody/nogroup own the mailboxes: Postfix delivers as that user
 * and Dovecot serves them as it. Neither accepts root for mail, and no user
 * needs to be added to the machine.
 */
const MAIL_UID = 65534;
const MAIL_GID = 65534;

/** The folder for `name` in $PATH or the sbin folders (often missing from a user's PATH). */
function findProgram(name: string): string | undefined {
  const folders = [...(process.env.PATH ?? "").split(delimiter), "/usr/sbin", "/usr/local/sbin"];
  for (const folder of folders.filter(Boolean)) {
    try {
      accessSync(join(folder, name), constants.X_OK);
      return join(folder, name);
    } catch {}
  }
  return undefined;
}

const POSTFIX = findProgram("postfix");
const DOVECOT = findProgram("dovecot");

function skipReason(): string | undefined {
  if (!POSTFIX || !DOVECOT) {
    return "Mail server tests skipped: Postfix or Dovecot is not installed (apt-get install postfix dovecot-imapd)";
  }
  if (process.getuid?.() !== 0) {
    return "Mail server tests skipped: Postfix's master process starts only as root";
  }
  return undefined;
}

/** Why the mail server tests cannot run here, or undefined when they can. */
export const MAIL_SERVERS_SKIP_REASON = skipReason();

let skipAnnounced = false;

function announceSkip(reason: string): void {
  if (skipAnnounced) return;
  skipAnnounced = true;
  console.warn(reason);
}

/** Dovecot 2.4 renamed or restructured most settings written below; failing says so plainly. */
function requireDovecot23(dovecot: string): void {
  const version = execFileSync(dovecot, ["--version"], { encoding: "utf8" }).trim();
  if (!version.startsWith("2.3.")) {
    throw new Error(`test/support/mail-servers.ts writes Dovecot 2.3 settings, found ${version}`);
  }
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, HOST, resolve));
  const address = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  if (typeof address !== "object" || !address) throw new Error("no free port on the loopback");
  return address.port;
}

interface Layout {
  root: string;
  postfixConfig: string;
  postfixQueue: string;
  maillog: string;
  dovecotConfig: string;
  dovecotRun: string;
  dovecotState: string;
  dovecotLog: string;
  mail: string;
}

function layoutIn(root: string): Layout {
  return {
    root,
    postfixConfig: join(root, "postfix"),
    postfixQueue: join(root, "postfix-queue"),
    maillog: join(root, "postfix.log"),
    dovecotConfig: join(root, "dovecot"),
    dovecotRun: join(root, "dovecot-run"),
    dovecotState: join(root, "dovecot-state"),
    dovecotLog: join(root, "dovecot.log"),
    mail: join(root, "mail"),
  };
}

/** The mailboxes, each a folder under `mail` named as its IMAP user, its home. */
const MAILBOXES = { bounces: "bounces", readers: "readers" } as const;

/** A mailbox's maildir relative to `mail`; the final slash tells Postfix it is a maildir. */
const maildirOf = (mailbox: string) => `${mailbox}/Maildir/`;

function checkReaders(existing: string[]): string[] {
  return existing.map((address) => {
    const lower = address.toLowerCase();
    if (!/^[^\s@]+@readers\.test$/.test(lower)) {
      throw new Error(`existing readers must be addresses in ${READERS_DOMAIN}, not ${address}`);
    }
    return lower;
  });
}

/** Who gets a mailbox: the whole bounce domain (the +suffix included) and each existing reader. */
function virtualMailboxes(readers: string[]): string {
  const lines = [`@${BOUNCE_DOMAIN} ${maildirOf(MAILBOXES.bounces)}`];
  for (const reader of readers) lines.push(`${reader} ${maildirOf(MAILBOXES.readers)}`);
  return `${lines.join("\n")}\n`;
}

function postfixMainCf(layout: Layout): string {
  return `${[
    "compatibility_level = 3.6",
    `queue_directory = ${layout.postfixQueue}`,
    `data_directory = ${join(layout.root, "postfix-data")}`,
    // Postfix logs through its postlogd service to a file of this instance's
    // own; the prefix list admits only files in this folder.
    `maillog_file = ${layout.maillog}`,
    `maillog_file_prefixes = ${layout.root}`,
    // A fixed name: nothing waits on DNS or the machine's hostname.
    "myhostname = mail-servers.test",
    "mydestination =",
    "alias_maps =",
    "alias_database =",
    "inet_interfaces = 127.0.0.1",
    "inet_protocols = ipv4",
    "mynetworks = 127.0.0.0/8",
    `virtual_mailbox_domains = ${BOUNCE_DOMAIN} ${READERS_DOMAIN}`,
    `virtual_mailbox_base = ${layout.mail}`,
    // texthash is read as it is, with no postmap run to index it.
    `virtual_mailbox_maps = texthash:${join(layout.postfixConfig, "virtual-mailboxes")}`,
    `virtual_uid_maps = static:${MAIL_UID}`,
    `virtual_gid_maps = static:${MAIL_GID}`,
    "recipient_delimiter = +",
    // An unknown reader is accepted and then bounced by the delivery agent, so
    // the sender gets a DSN, as from a remote domain, not an SMTP refusal.
    "smtpd_reject_unlisted_recipient = no",
    // Every other domain is bounced at once instead of being looked up in DNS.
    "default_transport = error:5.1.2 outside the test's mail servers",
    // A temporary failure is tried once and then bounced, never left queued
    // for days, so every message ends delivered or with a DSN.
    "maximal_queue_lifetime = 0",
    "bounce_queue_lifetime = 0",
    // Off already, stated: a warning DSN would sit beside the real ones.
    "delay_warning_time = 0",
    // A burst of sends is never slowed while the queue manager catches up.
    "in_flow_delay = 0",
  ].join("\n")}\n`;
}

/** The services a loopback relay with virtual mailboxes needs, none chrooted. */
function postfixMasterCf(smtpPort: number): string {
  return `${[
    `${HOST}:${smtpPort} inet n - n - - smtpd`,
    "pickup unix n - n 60 1 pickup",
    "cleanup unix n - n - 0 cleanup",
    "qmgr unix n - n 300 1 qmgr",
    "rewrite unix - - n - - trivial-rewrite",
    "bounce unix - - n - 0 bounce",
    "defer unix - - n - 0 bounce",
    "trace unix - - n - 0 bounce",
    "verify unix - - n - 1 verify",
    "flush unix n - n 1000? 0 flush",
    "proxymap unix - - n - - proxymap",
    "showq unix n - n - - showq",
    "error unix - - n - - error",
    "retry unix - - n - - error",
    "discard unix - - n - - discard",
    "virtual unix - n n - - virtual",
    "anvil unix - - n - 1 anvil",
    "scache unix - - n - 1 scache",
    "postlog unix-dgram n - n - 1 postlogd",
  ].join("\n")}\n`;
}

function dovecotConf(layout: Layout, imapPort: number): string {
  return `${[
    `base_dir = ${layout.dovecotRun}`,
    `state_dir = ${layout.dovecotState}`,
    "instance_name = mail-servers-test",
    `log_path = ${layout.dovecotLog}`,
    "protocols = imap",
    `listen = ${HOST}`,
    "ssl = no",
    "disable_plaintext_auth = no",
    "mail_location = maildir:~/Maildir",
    "passdb {",
    "  driver = passwd-file",
    `  args = scheme=PLAIN username_format=%u ${join(layout.dovecotConfig, "users")}`,
    "}",
    "userdb {",
    "  driver = static",
    `  args = uid=${MAIL_UID} gid=${MAIL_GID} home=${layout.mail}/%u`,
    "}",
    "service imap-login {",
    "  inet_listener imap {",
    `    address = ${HOST}`,
    `    port = ${imapPort}`,
    "  }",
    // Dovecot's built-in imaps listener would take port 993.
    "  inet_listener imaps {",
    "    port = 0",
    "  }",
    "}",
  ].join("\n")}\n`;
}

/** The user names match the folders under `mail`, which is each one's home. */
function dovecotUsers(logins: MailLogin[]): string {
  return logins.map(({ user, pass }) => `${user}:{PLAIN}${pass}::::::\n`).join("");
}

/**
 * The mail user must pass through the root folder (mkdtemp makes it 0700) to
 * reach the mailboxes, and owns them, so Postfix and Dovecot, acting as that
 * user, can write there.
 */
async function makeMaildirs(layout: Layout): Promise<void> {
  await chmod(layout.root, 0o755);
  const owned = [layout.mail];
  for (const mailbox of Object.values(MAILBOXES)) {
    const maildir = join(layout.mail, maildirOf(mailbox));
    owned.push(join(layout.mail, mailbox), maildir);
    for (const sub of ["cur", "new", "tmp"]) {
      await mkdir(join(maildir, sub), { recursive: true });
      owned.push(join(maildir, sub));
    }
  }
  for (const folder of owned) await chown(folder, MAIL_UID, MAIL_GID);
}

/**
 * Postfix reads a file changed within the last second again and again, a
 * pause between reads, until it stops changing: each of its programs would
 * wait out that second. Dated a minute back, the files are read once.
 */
async function writePostfixFile(layout: Layout, name: string, text: string): Promise<void> {
  const path = join(layout.postfixConfig, name);
  await writeFile(path, text);
  const aMinuteAgo = new Date(Date.now() - 60_000);
  await utimes(path, aMinuteAgo, aMinuteAgo);
}

async function writeConfigs(
  layout: Layout,
  ports: { smtp: number; imap: number },
  readers: string[],
  logins: MailLogin[],
): Promise<void> {
  for (const folder of [layout.postfixConfig, layout.postfixQueue, layout.dovecotConfig]) {
    await mkdir(folder);
  }
  await mkdir(layout.dovecotRun, { mode: 0o755 });
  await mkdir(layout.dovecotState);
  await writePostfixFile(layout, "main.cf", postfixMainCf(layout));
  await writePostfixFile(layout, "master.cf", postfixMasterCf(ports.smtp));
  await writePostfixFile(layout, "virtual-mailboxes", virtualMailboxes(readers));
  await writeFile(join(layout.dovecotConfig, "dovecot.conf"), dovecotConf(layout, ports.imap));
  // Dovecot's auth process reads it as the dovecot user; the passwords are
  // random and live only as long as these servers.
  await writeFile(join(layout.dovecotConfig, "users"), dovecotUsers(logins), { mode: 0o644 });
}

interface Running {
  child: ChildProcess;
  exited: Promise<number | null>;
  /** What the process wrote to stdout and stderr, for errors. */
  output(): string;
}

function run(program: string, args: string[]): Running {
  const child = spawn(program, args, { stdio: ["ignore", "pipe", "pipe"] });
  const chunks: string[] = [];
  child.stdout?.on("data", (chunk) => chunks.push(String(chunk)));
  child.stderr?.on("data", (chunk) => chunks.push(String(chunk)));
  const exited = new Promise<number | null>((resolve) => {
    child.once("exit", (code) => resolve(code));
    child.once("error", () => resolve(null));
  });
  return { child, exited, output: () => chunks.join("") };
}

/** The first line a server sends on a new connection; rejects if none comes. */
function greeting(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, HOST);
    let received = "";
    socket.setEncoding("utf8");
    socket.setTimeout(2_000, () => socket.destroy(new Error("no greeting")));
    socket.on("data", (chunk: string) => {
      received += chunk;
      const end = received.indexOf("\n");
      if (end < 0) return;
      socket.destroy();
      resolve(received.slice(0, end).trim());
    });
    socket.on("error", reject);
    socket.on("close", () => reject(new Error("closed before a greeting")));
  });
}

const readOrEmpty = (path: string) => readFile(path, "utf8").catch(() => "");

/**
 * Polls `port` until the server greets with `expected`, failing at once if
 * the process exits (a wrong setting, a taken port) with its output and log.
 */
async function waitForGreeting(
  name: string,
  server: Running,
  port: number,
  expected: RegExp,
  logFile: string,
): Promise<void> {
  let exitCode: number | null | undefined;
  void server.exited.then((code) => {
    exitCode = code;
  });
  const deadline = Date.now() + START_LIMIT_MS;
  let lastProblem = "";
  while (Date.now() < deadline) {
    if (exitCode !== undefined) {
      const log = await readOrEmpty(logFile);
      throw new Error(`${name} exited (${exitCode}) while starting:\n${server.output()}\n${log}`);
    }
    try {
      const line = await greeting(port);
      if (expected.test(line)) return;
      lastProblem = `greeted with ${line}`;
    } catch (error) {
      lastProblem = (error as Error).message;
    }
    // The interval between attempts of a bounded poll, not a wait for readiness.
    await delay(20);
  }
  throw new Error(
    `${name} did not greet on ${HOST}:${port} (${lastProblem}):\n${await readOrEmpty(logFile)}`,
  );
}

const hasExited = (server: Running) =>
  server.child.exitCode !== null || server.child.signalCode !== null;

async function waitForExit(server: Running, limitMs: number): Promise<boolean> {
  const limit = delay(limitMs, false, { ref: false });
  return Promise.race([server.exited.then(() => true), limit]);
}

/** The master's process id, which `postfix start-fg` runs under a shell. */
async function postfixMasterPid(layout: Layout): Promise<number | undefined> {
  const text = await readOrEmpty(join(layout.postfixQueue, "pid", "master.pid"));
  const pid = Number(text.trim());
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

function signal(pid: number | undefined, name: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(pid, name);
  } catch {}
}

/**
 * SIGTERM is what `postfix stop` sends the master too (its script then waits
 * in whole seconds); the master passes it on to its children and leaves. The
 * master leads its own process group, so the kill after the limit takes them all.
 */
async function stopPostfix(server: Running, layout: Layout): Promise<void> {
  if (hasExited(server)) return;
  const master = await postfixMasterPid(layout);
  signal(master, "SIGTERM");
  if (master === undefined) signal(server.child.pid, "SIGTERM");
  if (await waitForExit(server, STOP_LIMIT_MS)) return;
  if (master !== undefined) signal(-master, "SIGKILL");
  server.child.kill("SIGKILL");
  await server.exited;
}

/** Dovecot in the foreground is its own master, which ends its sessions on SIGTERM. */
async function stopDovecot(server: Running): Promise<void> {
  if (hasExited(server)) return;
  server.child.kill("SIGTERM");
  if (await waitForExit(server, STOP_LIMIT_MS)) return;
  server.child.kill("SIGKILL");
  await server.exited;
}

/**
 * Servers a test never stopped (it failed before its cleanup, the worker is
 * leaving) are told to end with the process, not left holding their ports.
 */
const unstopped = new Set<() => void>();
process.once("exit", () => {
  for (const end of unstopped) end();
});

function endWithProcess(pids: () => (number | undefined)[]): () => void {
  const end = () => {
    for (const pid of pids()) signal(pid, "SIGTERM");
  };
  unstopped.add(end);
  return () => unstopped.delete(end);
}

function newLogin(user: string): MailLogin {
  return { user, pass: randomBytes(12).toString("hex") };
}

/** Null (after printing why, once) when postfix or dovecot is not installed, or this is not root. */
export async function startMailServers(options: {
  existing: string[];
}): Promise<MailServers | null> {
  if (MAIL_SERVERS_SKIP_REASON || !POSTFIX || !DOVECOT) {
    announceSkip(MAIL_SERVERS_SKIP_REASON ?? "Mail server tests skipped");
    return null;
  }
  requireDovecot23(DOVECOT);
  const readers = checkReaders(options.existing);
  const layout = layoutIn(await mkdtemp(join(tmpdir(), "mail-servers-")));
  const ports = { smtp: await freePort(), imap: await freePort() };
  const bounces = newLogin(MAILBOXES.bounces);
  const readersLogin = newLogin(MAILBOXES.readers);
  try {
    await writeConfigs(layout, ports, readers, [bounces, readersLogin]);
    await makeMaildirs(layout);
  } catch (error) {
    await rm(layout.root, { recursive: true, force: true });
    throw error;
  }

  const postfix = run(POSTFIX, ["-c", layout.postfixConfig, "start-fg"]);
  const dovecot = run(DOVECOT, ["-F", "-c", join(layout.dovecotConfig, "dovecot.conf")]);
  let masterPid: number | undefined;
  const forget = endWithProcess(() => [masterPid, dovecot.child.pid]);
  const stop = async () => {
    await Promise.all([stopPostfix(postfix, layout), stopDovecot(dovecot)]);
    forget();
    await rm(layout.root, { recursive: true, force: true, maxRetries: 5 });
  };

  try {
    await Promise.all([
      waitForGreeting("Postfix", postfix, ports.smtp, /^220 /, layout.maillog),
      waitForGreeting("Dovecot", dovecot, ports.imap, /^\* OK /, layout.dovecotLog),
    ]);
    masterPid = await postfixMasterPid(layout);
  } catch (error) {
    await stop();
    throw error;
  }

  return {
    smtp: { host: HOST, port: ports.smtp },
    imap: { host: HOST, port: ports.imap, ...bounces },
    readersLogin,
    bounceDomain: BOUNCE_DOMAIN,
    readersDomain: READERS_DOMAIN,
    maillog: () => readOrEmpty(layout.maillog),
    stop,
  };
}
