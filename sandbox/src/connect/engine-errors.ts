/**
 * Why an engine could not be reached, in words a person can act on: a certificate the engine
 * refused, an engine certificate this host does not trust, or nothing answering at all.
 */
import type { EngineAddress } from "./engine-address.js";
import { EvolveError } from "../../../harness/src/kernel/index.js";

/** The engine's certificate is not one this host trusts (or it names another host). */
const UNTRUSTED_SERVER = /SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER|CERT_HAS_EXPIRED|CERT_NOT_YET_VALID|ALTNAME|CERT_UNTRUSTED|CERT_REJECTED|self[- ]signed|unable to verify|does not match certificate/i;
/** The engine turned this client's certificate down (a TLS alert during or right after the handshake). */
const REFUSED_CLIENT = /alert|bad certificate|unknown ca|certificate required|certificate_required|handshake failure|ERR_SSL/i;

function describeError(error: unknown): { code: string; message: string } {
  const e = error as { code?: unknown; message?: unknown; reason?: unknown } | null;
  const code = typeof e?.code === "string" ? e.code : "";
  const raw = typeof e?.message === "string" && e.message !== "" ? e.message : String(error);
  // OpenSSL's text ("...:sslv3 alert bad certificate:../deps/...") says it in two words.
  const alert = /alert ([a-z _]+?)(?::|\s*$)/i.exec(raw)?.[1];
  return { code, message: alert === undefined ? (raw.split("\n")[0] ?? raw) : `TLS alert "${alert}"` };
}

/** The EvolveError for a failed first contact with the engine at `address`. */
export function connectFailure(error: unknown, address: Pick<EngineAddress, "name" | "endpoint">): EvolveError {
  const { code, message } = describeError(error);
  const text = `${code} ${message}`;
  const where = `the engine ${address.name} at ${address.endpoint}`;
  if (address.endpoint.startsWith("tcp://")) {
    if (UNTRUSTED_SERVER.test(text)) {
      return new EvolveError("engine_tls", `${where} presented a certificate this host does not trust (${message})`, {
        cause: error,
        hint: "ca.pem must be the CA that signed the engine's --tlscert, and that certificate must name the address you connect to",
      });
    }
    if (REFUSED_CLIENT.test(text) || code === "ECONNRESET" || code === "EPROTO" || /socket hang up/i.test(message)) {
      return new EvolveError("engine_tls", `${where} refused this client's TLS certificate (${message})`, {
        cause: error,
        hint: "cert.pem and key.pem must be a client certificate signed by the CA the engine trusts (its --tlscacert); `docker --context NAME info` shows the same",
      });
    }
  }
  if (address.endpoint.startsWith("ssh://") && /verification failed|host denied/i.test(message)) {
    return new EvolveError("engine_refused", `${where} showed an SSH host key that known_hosts does not trust for it (${message})`, {
      cause: error,
      hint: "if the host's key changed on purpose, check its fingerprint and update ~/.ssh/known_hosts; otherwise something may be posing as it",
    });
  }
  return new EvolveError("engine_unreachable", `no Docker engine answers at ${address.endpoint} for ${address.name} (${message})`, {
    cause: error,
    hint: address.endpoint.startsWith("ssh://")
      ? "check `ssh HOST docker info` works with your ssh-agent (SSH_AUTH_SOCK) and that docker is on the remote PATH"
      : "check the engine runs and this host can reach that address (`docker --host URL info`)",
  });
}
