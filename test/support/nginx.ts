/**
 * Debian's nginx running deploy/nginx.conf as it ships, but for what a run
 * must change: the host name, a throwaway certificate, the ports it listens
 * on and the instances' ports, and its files (log, pid, buffered bodies)
 * in a folder of the run's own. `npm run audit:headers` and the rolling
 * upgrade test (test/deploy/rolling-upgrade.test.ts) run it.
 */
import { type ChildProcess, execFileSync, spawn, spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

export const SITE_CONFIG = resolve("deploy/nginx.conf");

export const NGINX_SKIP_REASON =
  "nginx tests skipped: Debian's nginx is not installed (apt-get install nginx)";

export function hasNginx(): boolean {
  return spawnSync("nginx", ["-v"]).status === 0;
}

/** A self-signed certificate for `host`, made for this run only. */
export function throwawayCertificate(dir: string, host: string): { cert: string; key: string } {
  const cert = join(dir, "cert.pem");
  const key = join(dir, "key.pem");
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:prime256v1",
      "-nodes",
      "-days",
      "1",
      "-subj",
      `/CN=${host}`,
      "-addext",
      `subjectAltName=DNS:${host}`,
      "-keyout",
      key,
      "-out",
      cert,
    ],
    { stdio: "ignore" },
  );
  return { cert, key };
}

export interface ProxySettings {
  /** The run's folder: configuration, log, pid and nginx's buffers go here. */
  dir: string;
  host: string;
  cert: string;
  key: string;
  /** The instances' ports, in the order of the upstream's servers. */
  instancePorts: [number, number];
  httpPort: number;
  httpsPort: number;
}

/**
 * deploy/nginx.conf with only the names, paths and ports of this run
 * changed, and the main configuration that includes it; returns the main
 * configuration's path.
 */
export function proxyConfig(settings: ProxySettings): string {
  const { dir, host, cert, key, instancePorts, httpPort, httpsPort } = settings;
  let instance = 0;
  const site = readFileSync(SITE_CONFIG, "utf8")
    .replaceAll("www.example.com", host)
    .replace(/ssl_certificate\s+\S+;/, `ssl_certificate ${cert};`)
    .replace(/ssl_certificate_key\s+\S+;/, `ssl_certificate_key ${key};`)
    .replaceAll(/server 127\.0\.0\.1:\d+/g, () => {
      const port = instancePorts[instance % instancePorts.length];
      instance += 1;
      return `server 127.0.0.1:${port}`;
    })
    .replaceAll(/listen (\[::\]:)?80;/g, (_all, v6 = "") => `listen ${v6}${httpPort};`)
    .replaceAll(/listen (\[::\]:)?443 /g, (_all, v6 = "") => `listen ${v6}${httpsPort} `)
    .replace(/access_log \S+/, `access_log ${join(dir, "access.log")}`);
  const sitePath = join(dir, "site.conf");
  writeFileSync(sitePath, site);
  const main = join(dir, "nginx.conf");
  const temp = (what: string) => `${what}_temp_path ${join(dir, `${what}-temp`)};`;
  writeFileSync(
    main,
    [
      "daemon off;",
      // As root, the workers would run as nobody, who cannot write into the run's folder.
      ...(process.getuid?.() === 0 ? ["user root;"] : []),
      `pid ${join(dir, "nginx.pid")};`,
      "events { worker_connections 256; }",
      "http {",
      "  access_log off;",
      ...["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map((what) => `  ${temp(what)}`),
      `  include ${sitePath};`,
      "}",
      "",
    ].join("\n"),
  );
  return main;
}

/** Checks the configuration (throws with nginx's words when it is wrong), then starts nginx on it. */
export function startNginx(config: string, errorLog: string): ChildProcess {
  const check = spawnSync("nginx", ["-t", "-q", "-c", config, "-e", errorLog], {
    encoding: "utf8",
  });
  if (check.status !== 0) throw new Error(`nginx -t failed: ${check.stderr}`);
  return spawn("nginx", ["-c", config, "-e", errorLog], { stdio: "inherit" });
}
