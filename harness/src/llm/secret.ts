import { inspect } from "node:util";

const REDACTED = "[REDACTED]";

/**
 * A credential that cannot leak by accident: JSON, string coercion and util.inspect all
 * show "[REDACTED]"; only `reveal()` gives the value, and only the openai adapter calls it.
 */
export class Secret {
  readonly #value: string;

  constructor(value: string) {
    this.#value = value;
  }

  /** The raw value, for the one place that must send it (the HTTP client). */
  reveal(): string {
    return this.#value;
  }

  /** Replaces every occurrence of the secret in `text`. */
  redact(text: string): string {
    return redactAll(text, [this.#value]);
  }

  toJSON(): string {
    return REDACTED;
  }

  toString(): string {
    return REDACTED;
  }

  [inspect.custom](): string {
    return REDACTED;
  }
}

/** Replaces every occurrence of each secret (ignoring too-short ones that would shred text). */
export function redactAll(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    // A 1–3 character "key" (e.g. a dummy for a local server) would redact ordinary words.
    if (secret.length < 4) continue;
    out = out.split(secret).join(REDACTED);
  }
  return out;
}
