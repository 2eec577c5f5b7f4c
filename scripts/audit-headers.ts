/**
 * `npm run audit:headers`: Mozilla's HTTP Observatory scanner against the
 * built site behind the reverse proxy docs/operations/deploying.md recommends.
 *
 * - the built server (npm run build) on a spare port, fresh SQLite database,
 *   NODE_ENV=production, TRUST_PROXY=127.0.0.1;
 * - nginx with deploy/nginx.conf as it is, but for the host name, the
 *   certificate (a throwaway self-signed one made with openssl) and the
 *   server's port; it listens on 80 and 443, where the scanner looks, so the
 *   script runs as root, and installs nginx (apt-get) if it is missing;
 * - the host name AUDIT_HOST (a name under .test, reserved for testing)
 *   points to 127.0.0.1 through a line in /etc/hosts, added for the run and
 *   removed after it: the scanner takes a host name, not an address;
 * - the scanner (@mdn/mdn-http-observatory) is installed on first use into
 *   node_modules/.cache/observatory, outside the project's dependencies (it
 *   brings a web server, PostgreSQL bindings and jsdom), and run with the
 *   throwaway certificate trusted through NODE_EXTRA_CA_CERTS. Its own
 *   wrapper (bin/wrapper.js) would replace that variable with Mozilla's CA
 *   bundle, so its command-line entry (src/scan.js) is run directly.
 *
 * Prints the grade, the score and each test's result, and checks every page's
 * Content-Security-Policy through the proxy for 'unsafe-inline'. Exits 1
 * below A+ or if any policy allows inline code wholesale.
 */
import { type spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { request } from "node:https";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { caseStudyPath, PAGE_PATHS } from "../src/shared/routes.ts";
import { hasNginx, proxyConfig, startNginx, throwawayCertificate } from "../test/support/nginx.ts";
import { startBuiltSite } from "./built-site.ts";

const HOST = process.env.AUDIT_HOST ?? "meridian-audit.test";
const SERVER_PORT = Number(process.env.AUDIT_SERVER_PORT ?? 4390);
const SCANNER_VERSION = "1.4.8";
const SCANNER_PREFIX = resolve("node_modules/.cache/observatory");
const SCANNER_DIR = join(SCANNER_PREFIX, "node_modules/@mdn/mdn-http-observatory");
const HOSTS_FILE = "/etc/hosts";
const HOSTS_LINE = `127.0.0.1 ${HOST} # npm run audit:headers`;
const CHECKED_PATHS = [
  ...PAGE_PATHS,
  caseStudyPath("finance-ar-forecast"),
  "/no-such-page",
  "/admin",
];

function fail(message: string): never {
  console.error(`audit:headers: ${message}`);
  process.exit(1);
}

function run(command: string, args: string[]): void {
  const result = spawnSync(command, args, { stdio: "inherit" });
  if (result.status !== 0) fail(`${command} ${args.join(" ")} failed (exit ${result.status})`);
}

function ensureNginx(): void {
  if (hasNginx()) return;
  console.log("nginx is missing: installing the Debian package");
  run("apt-get", ["install", "-y", "--no-install-recommends", "nginx"]);
}

/**
 * Installs the scanner once. Its install script downloads the HSTS preload
 * list; without network (or with --ignore-scripts) an empty list stands in:
 * AUDIT_HOST is in no preload list anyway.
 */
function ensureScanner(): string {
  const scanScript = join(SCANNER_DIR, "src/scan.js");
  if (!existsSync(scanScript)) {
    console.log(`installing @mdn/mdn-http-observatory@${SCANNER_VERSION} into ${SCANNER_PREFIX}`);
    run("flock", [
      "/tmp/npm.lock",
      "npm",
      "install",
      "--prefix",
      SCANNER_PREFIX,
      "--no-save",
      "--no-audit",
      "--no-fund",
      "--ignore-scripts",
      `@mdn/mdn-http-observatory@${SCANNER_VERSION}`,
    ]);
  }
  const preload = join(SCANNER_DIR, "conf/hsts-preload.json");
  if (!existsSync(preload)) writeFileSync(preload, "{}\n");
  return scanScript;
}

function addHostsEntry(): () => void {
  const original = readFileSync(HOSTS_FILE, "utf8");
  if (original.split("\n").includes(HOSTS_LINE)) return () => {};
  writeFileSync(HOSTS_FILE, `${original.replace(/\n?$/, "\n")}${HOSTS_LINE}\n`);
  return () => {
    const now = readFileSync(HOSTS_FILE, "utf8");
    writeFileSync(HOSTS_FILE, now.replace(`${HOSTS_LINE}\n`, ""));
  };
}

function get(path: string, ca: string): Promise<{ status: number; csp: string }> {
  return new Promise((done, failed) => {
    request({ host: HOST, port: 443, path, ca, method: "GET" }, (response) => {
      response.resume();
      done({
        status: response.statusCode ?? 0,
        csp: String(response.headers["content-security-policy"] ?? ""),
      });
    })
      .on("error", failed)
      .end();
  });
}

async function waitForProxy(ca: string, proxy: ReturnType<typeof spawn>): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    if (proxy.exitCode !== null) fail(`nginx stopped (exit ${proxy.exitCode}); see above`);
    try {
      if ((await get("/healthz", ca)).status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  fail(`nginx did not answer on https://${HOST}/`);
}

interface ScanTest {
  pass: boolean | null;
  result: string;
  scoreModifier: number;
}
interface ScanOutput {
  error?: string;
  scan: { grade: string; score: number; testsPassed: number; testsQuantity: number };
  tests: Record<string, ScanTest>;
}

function scan(scanScript: string, ca: string): ScanOutput {
  const result = spawnSync(process.execPath, [scanScript, HOST], {
    env: { ...process.env, NODE_EXTRA_CA_CERTS: ca },
    encoding: "utf8",
  });
  let output: ScanOutput;
  try {
    output = JSON.parse(result.stdout);
  } catch {
    fail(`the scanner printed no result:\n${result.stdout}${result.stderr}`);
  }
  if (output.error) fail(`the scanner failed: ${output.error}`);
  return output;
}

function printTable(output: ScanOutput): void {
  const { grade, score, testsPassed, testsQuantity } = output.scan;
  console.log(
    `\nHTTP Observatory: grade ${grade}, score ${score}, ${testsPassed}/${testsQuantity} tests passed\n`,
  );
  console.log("| Test | Pass | Score | Result |");
  console.log("|---|---|---|---|");
  for (const [name, test] of Object.entries(output.tests)) {
    const modifier = test.scoreModifier > 0 ? `+${test.scoreModifier}` : String(test.scoreModifier);
    console.log(`| ${name} | ${test.pass ? "yes" : "no"} | ${modifier} | ${test.result} |`);
  }
}

if (process.getuid?.() !== 0)
  fail("run as root: the proxy listens on ports 80 and 443 and the run adds a line to /etc/hosts");
if (!existsSync("build/node/src/server/main.js")) fail("no built server: run npm run build first");
ensureNginx();
const scanScript = ensureScanner();

const dir = mkdtempSync(join(tmpdir(), "audit-headers-"));
const { cert, key } = throwawayCertificate(dir, HOST);
// Both instances of the upstream are this run's one server.
const nginxConfig = proxyConfig({
  dir,
  host: HOST,
  cert,
  key,
  instancePorts: [SERVER_PORT, SERVER_PORT],
  httpPort: 80,
  httpsPort: 443,
});

Object.assign(process.env, {
  NODE_ENV: "production",
  PUBLIC_ORIGIN: `https://${HOST}`,
  TRUST_PROXY: "127.0.0.1",
});
const removeHostsEntry = addHostsEntry();
const site = await startBuiltSite(SERVER_PORT);
const proxy = startNginx(nginxConfig, join(dir, "error.log"));
const stopAll = () => {
  proxy.kill("SIGQUIT");
  site.stop();
  removeHostsEntry();
};
process.on("SIGINT", () => {
  stopAll();
  process.exit(130);
});

let failures = 0;
try {
  const ca = readFileSync(cert, "utf8");
  await waitForProxy(ca, proxy);
  console.log(`site behind nginx (deploy/nginx.conf) at https://${HOST}/, scanning…`);
  const output = scan(scanScript, cert);
  printTable(output);
  console.log("\nContent-Security-Policy of each page through the proxy (hashes counted):");
  for (const path of CHECKED_PATHS) {
    const { status, csp } = await get(path, ca);
    const refused = csp === "" || csp.includes("'unsafe-inline'");
    if (refused) failures += 1;
    const summary = csp.replace(
      /( '(sha256-[^']+)')+/g,
      (hashes) => ` +${hashes.split(" ").length - 1} hashes`,
    );
    console.log(`${refused ? "FAIL" : "ok  "} ${status} ${path}: ${summary || "(none)"}`);
  }
  if (output.scan.grade !== "A+") {
    console.error(`\nthe grade is ${output.scan.grade}, below A+`);
    failures += 1;
  }
} finally {
  stopAll();
}
process.exit(failures > 0 ? 1 : 0);
