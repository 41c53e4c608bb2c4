/**
 * TLS material for the test engines, made with openssl: a CA, a server certificate per
 * engine (naming its address), a client certificate the engines trust, and one from another
 * CA that they must refuse.
 */
import { execFileSync } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";

function openssl(args: string[], cwd: string): void {
  execFileSync("openssl", args, { cwd, stdio: ["ignore", "ignore", "pipe"] });
}

/** A CA in `dir` (ca.pem, ca-key.pem). */
export async function makeCa(dir: string, name: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  openssl(["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca-key.pem", "-out", "ca.pem", "-subj", `/CN=${name}`, "-days", "2"], dir);
}

/** A certificate signed by the CA in `caDir`: `prefix`-cert.pem and `prefix`-key.pem in `caDir`. */
export async function signCertificate(caDir: string, prefix: string, usage: { serverIp: string } | "client"): Promise<{ cert: string; key: string }> {
  const ext = usage === "client" ? "extendedKeyUsage=clientAuth\n" : `subjectAltName=IP:${usage.serverIp}\nextendedKeyUsage=serverAuth\n`;
  await writeFile(join(caDir, `${prefix}.ext`), ext);
  openssl(["req", "-newkey", "rsa:2048", "-nodes", "-keyout", `${prefix}-key.pem`, "-out", `${prefix}.csr`, "-subj", `/CN=${prefix}`], caDir);
  openssl(["x509", "-req", "-in", `${prefix}.csr`, "-CA", "ca.pem", "-CAkey", "ca-key.pem", "-CAcreateserial", "-out", `${prefix}-cert.pem`, "-days", "2", "-extfile", `${prefix}.ext`], caDir);
  return { cert: join(caDir, `${prefix}-cert.pem`), key: join(caDir, `${prefix}-key.pem`) };
}
