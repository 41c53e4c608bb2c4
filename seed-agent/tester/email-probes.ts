/**
 * Email addresses that probe the edges of practical RFC 5321/5322 validation, by family. The
 * tester proposes them as they are or as variants; the task's oracle, not the tester, says
 * which are valid. Add to them freely: a later generation may.
 */
const LOCAL64 = "a".repeat(64);
const LABEL63 = "b".repeat(63);

export const EMAIL_PROBES: Record<string, readonly string[]> = {
  quoted: ['"john doe"@example.com', '"a@b"@example.com', '"quo\\"te"@example.com', '""@example.com', '"open@example.com', '"x"y@example.com', 'x."y".z@example.com'],
  ip: ["user@[192.168.0.1]", "user@[IPv6:2001:db8::1]", "user@[300.1.1.1]", "user@192.168.0.1", "user@[127.0.0.1", "user@[not.an.ip]"],
  dots: ["a..b@example.com", ".a@example.com", "a.@example.com", "a@example..com", "a@.example.com", "a@example.com.", "a.b.c.d@example.com"],
  hyphens: ["a@-example.com", "a@example-.com", "a@ex-ample.com", "a@ex--ample.com", "a@sub.-example.com", "-a-@example.com"],
  length: [`${LOCAL64}@example.com`, `${LOCAL64}a@example.com`, `x@${LABEL63}.com`, `x@${LABEL63}b.com`, `x@${"c".repeat(60)}.${"d".repeat(60)}.${"e".repeat(60)}.${"f".repeat(60)}.com`, "a@b.co"],
  unicode: ["josé@example.com", "user@exämple.com", "用户@例子.广告", "user@xn--exmple-cua.com", "üñî@example.com", "user@example.com\u200b"],
  tags: ["user+@example.com", "+tag@example.com", "user+tag+more@example.com", "user+tag@sub.example.com", "user-tag@example.com"],
  tld: ["user@example.c", "user@example.123", "user@example.co1", "user@localhost", "user@example", "user@example.x-y", "user@example.museum"],
  chars: ["user name@example.com", "user@exa mple.com", "user!#$%&'*+/=?^_`{|}~@example.com", "user(comment)@example.com", "user\\@example.com", "a@b@c.com", "user@exam_ple.com", "USER@EXAMPLE.COM", "user@example,com"],
};

const DOMAINS = ["example.org", "mail.example.net", "sub.domain.example.co.uk", "test.io", "a.bc"];

/** Another address of the same shape: its domain swapped (bracketed literals kept), or its case changed. */
export function variantOf(address: string, random: () => number): string {
  const at = address.lastIndexOf("@");
  if (at < 0) return address.toUpperCase();
  const local = address.slice(0, at);
  const domain = address.slice(at + 1);
  if (domain.startsWith("[") || random() < 0.3) return `${local}@${domain.toUpperCase()}`;
  // Keep the domain's own oddity (a trailing dot, a bad label) and move the rest.
  const tail = domain.endsWith(".") ? "." : "";
  return `${local}@${DOMAINS[Math.floor(random() * DOMAINS.length)] ?? "example.org"}${tail}`;
}
