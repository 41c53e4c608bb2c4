/**
 * Email validation: a rule-based checker; each rule can be switched on or off and the
 * length limits are tunable. Input `{ addresses: string[] }` → boolean[].
 */
import type { Json } from "@evolve/contract";

export const params = {
  maxLength: 320, // evolve:range 64..400 int
  maxLocalLength: 128, // evolve:range 16..256 int
  localChars: "loose", // evolve:choices "loose" | "atext"
  checkDots: true, // evolve:flag
  checkLabels: false, // evolve:flag
  requireTld: true, // evolve:flag
  rejectNumericTld: false, // evolve:flag
  allowQuoted: false, // evolve:flag
  allowIpLiteral: false, // evolve:flag
  asciiOnly: false, // evolve:flag
};

const ATEXT = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+$/;
const LOOSE = /^[^\s@"(),:;<>[\\\]]+$/;
const LABEL_CHARS = /^[A-Za-z0-9-]+$/;

function asciiPrintable(text: string, allowSpace: boolean): boolean {
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    if (code > 126 || code < (allowSpace ? 32 : 33)) return false;
  }
  return true;
}

function validQuoted(local: string): boolean {
  if (local.length < 2 || !local.startsWith('"') || !local.endsWith('"')) return false;
  const inner = local.slice(1, -1);
  for (let i = 0; i < inner.length; i++) {
    const ch = inner[i]!;
    if (ch === "\\") i++;
    else if (ch === '"' || !asciiPrintable(ch, true)) return false;
  }
  return true;
}

function validLocal(local: string): boolean {
  if (local.length === 0 || local.length > params.maxLocalLength) return false;
  if (local.startsWith('"')) return params.allowQuoted && validQuoted(local);
  if (params.asciiOnly && !asciiPrintable(local, false)) return false;
  const pattern = params.localChars === "atext" ? ATEXT : LOOSE;
  if (params.checkDots) return local.split(".").every((atom) => atom.length > 0 && pattern.test(atom));
  return pattern.test(local.replace(/\./g, "a"));
}

function validIpLiteral(domain: string): boolean {
  const m = /^\[(\d+)\.(\d+)\.(\d+)\.(\d+)\]$/.exec(domain);
  return m !== null && m.slice(1).every((o) => Number(o) <= 255);
}

function validDomain(domain: string): boolean {
  if (domain.startsWith("[")) return params.allowIpLiteral && validIpLiteral(domain);
  if (params.asciiOnly && !asciiPrintable(domain, false)) return false;
  if (/\s|@/.test(domain)) return false;
  const labels = domain.split(".");
  if (params.requireTld && labels.length < 2) return false;
  if (params.checkDots && labels.some((l) => l.length === 0)) return false;
  if (params.checkLabels && labels.some((l) => l.length > 63 || !LABEL_CHARS.test(l) || l.startsWith("-") || l.endsWith("-")))
    return false;
  if (params.rejectNumericTld && /^\d+$/.test(labels[labels.length - 1] ?? "")) return false;
  return true;
}

/** One address under the current rules. */
export function isValidEmail(address: string): boolean {
  if (address.length > params.maxLength) return false;
  const at = address.lastIndexOf("@");
  if (at <= 0 || at === address.length - 1) return false;
  return validLocal(address.slice(0, at)) && validDomain(address.slice(at + 1));
}

export function solveEmailValidation(input: Json): Json {
  const addresses = typeof input === "object" && input !== null && !Array.isArray(input) ? input["addresses"] : undefined;
  if (!Array.isArray(addresses)) throw new Error("input must be { addresses: string[] }");
  return addresses.map((a) => typeof a === "string" && isValidEmail(a));
}
