/**
 * The task's rules as trusted reference code (README.md states them in words). The grader
 * scores against the labels in the split files; a test checks every label against this.
 */

const ATEXT = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+$/;
const LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;

function isPrintableAscii(text: string, allowSpace: boolean): boolean {
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    if (code > 126 || code < (allowSpace ? 32 : 33)) return false;
  }
  return true;
}

function isDotAtom(local: string): boolean {
  return local.split(".").every((atom) => ATEXT.test(atom));
}

function isQuoted(local: string): boolean {
  if (local.length < 2 || !local.startsWith('"') || !local.endsWith('"')) return false;
  const inner = local.slice(1, -1);
  for (let i = 0; i < inner.length; i++) {
    const ch = inner[i]!;
    if (ch === "\\") {
      const next = inner[i + 1];
      if (next === undefined || !isPrintableAscii(next, true)) return false;
      i++;
    } else if (ch === '"' || !isPrintableAscii(ch, true)) return false;
  }
  return true;
}

function isIpv4Literal(domain: string): boolean {
  const m = /^\[(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\]$/.exec(domain);
  if (m === null) return false;
  return m.slice(1).every((o) => (o === "0" || !o.startsWith("0")) && Number(o) <= 255);
}

function isHostname(domain: string): boolean {
  if (domain.length > 253) return false;
  const labels = domain.split(".");
  if (labels.length < 2) return false;
  if (!labels.every((l) => LABEL.test(l))) return false;
  return !/^\d+$/.test(labels[labels.length - 1]!);
}

/** True when `address` is valid under the task's practical RFC 5321/5322 rules. */
export function isValidAddress(address: string): boolean {
  if (address.length > 254) return false;
  const at = address.lastIndexOf("@");
  if (at <= 0 || at === address.length - 1) return false;
  const local = address.slice(0, at);
  const domain = address.slice(at + 1);
  if (local.length > 64) return false;
  const localOk = local.startsWith('"') ? isQuoted(local) : isPrintableAscii(local, false) && isDotAtom(local);
  if (!localOk) return false;
  return isPrintableAscii(domain, false) && (isHostname(domain) || isIpv4Literal(domain));
}
