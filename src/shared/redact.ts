/**
 * Redaction backstop (docs/behaviour.md §10.5). The primary rule is that upstream prose is never published;
 * this only catches credential-shaped substrings in text that might carry upstream content.
 */

export const REDACTED = '[redacted]';

// The lookbehind keeps a match from starting inside a longer word (e.g. "task-…").
const CREDENTIAL_PATTERNS: readonly RegExp[] = [
  /(?<![A-Za-z0-9])sk-[A-Za-z0-9_-]{16,}/g,
  /(?<![A-Za-z0-9])gh[pousr]_[A-Za-z0-9_]{16,}/g,
  /(?<![A-Za-z0-9])AKIA[A-Z0-9]{16}/g,
  // JWT-like: three base64url parts joined by dots, the first starting "ey".
  /(?<![A-Za-z0-9_-])ey[A-Za-z0-9_-]{6,}\.[A-Za-z0-9_-]{6,}\.[A-Za-z0-9_-]*/g,
];

export function redact(text: string): string {
  let out = text;
  for (const pattern of CREDENTIAL_PATTERNS) out = out.replace(pattern, REDACTED);
  return out;
}
