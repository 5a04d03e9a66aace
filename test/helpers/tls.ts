import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

// Certificates made by the test itself with the machine's openssl (issue 13 item 2): a
// private CA and a server certificate it signed for 127.0.0.1/localhost, and a self-signed
// one. Nothing here is trusted by Node until a test sets NODE_EXTRA_CA_CERTS to `caFile`.
// P-256 keys: openssl makes one in ~6 ms of CPU where an RSA 2048 key takes ~160 ms, and
// what the tests check (trust, names, refusals) does not depend on the key type.

export interface TestCertificates {
  /** Server key and certificate signed by the private CA. */
  signed: { key: string; cert: string };
  /** A self-signed server key and certificate (no CA at all). */
  selfSigned: { key: string; cert: string };
  /** The private CA's certificate, PEM, for NODE_EXTRA_CA_CERTS. */
  caFile: string;
  dir: string;
  remove(): void;
}

/** A new P-256 key, as `openssl req` is told to make one. */
const NEW_KEY = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];

/** `openssl req` arguments for a self-signed certificate valid 2 days, and its new key (no passphrase). */
export function selfSignedRequest(cert: { subject: string; san?: string; keyFile: string; certFile: string }): string[] {
  return [
    "req",
    "-x509",
    ...NEW_KEY,
    "-days",
    "2",
    "-subj",
    cert.subject,
    ...(cert.san ? ["-addext", cert.san] : []),
    "-keyout",
    cert.keyFile,
    "-out",
    cert.certFile,
  ];
}

function openssl(dir: string, args: string[]): void {
  execFileSync("openssl", args, { cwd: dir, stdio: ["ignore", "ignore", "pipe"] });
}

export function makeCertificates(): TestCertificates {
  const dir = mkdtempSync(join(tmpdir(), "simadmin-tls-"));
  const san = "subjectAltName=IP:127.0.0.1,DNS:localhost";
  writeFileSync(join(dir, "san.ext"), `${san}\n`);
  openssl(dir, selfSignedRequest({ subject: "/CN=simadmin test CA", keyFile: "ca.key", certFile: "ca.pem" }));
  openssl(dir, ["req", ...NEW_KEY, "-subj", "/CN=127.0.0.1", "-keyout", "server.key", "-out", "server.csr"]);
  openssl(dir, [
    "x509",
    "-req",
    "-in",
    "server.csr",
    "-CA",
    "ca.pem",
    "-CAkey",
    "ca.key",
    "-CAcreateserial",
    "-days",
    "2",
    "-extfile",
    "san.ext",
    "-out",
    "server.pem",
  ]);
  openssl(dir, selfSignedRequest({ subject: "/CN=127.0.0.1", san, keyFile: "self.key", certFile: "self.pem" }));
  const read = (name: string): string => readFileSync(join(dir, name), "utf8");
  return {
    signed: { key: read("server.key"), cert: read("server.pem") },
    selfSigned: { key: read("self.key"), cert: read("self.pem") },
    caFile: join(dir, "ca.pem"),
    dir,
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
