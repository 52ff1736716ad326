/**
 * The CLI's neutralising set, as the page's script applies it: C0 less newline and tab, DEL, C1, bidi marks and isolates, LS, PS.
 * Pure, no Node or DOM API: it is bundled into the browser script as well.
 */
export const UNSAFE_IN_PROSE =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/g;

function visible(ch: string): string {
  if (ch === '\r') return '\\r';
  const code = ch.charCodeAt(0);
  return code < 0x80
    ? `\\x${code.toString(16).padStart(2, '0')}`
    : `<U+${code.toString(16).toUpperCase().padStart(4, '0')}>`;
}

/** The text with every unsafe character made visible, e.g. `\x1b` or `<U+202E>`. */
export function neutralise(value: string): string {
  return value.replace(UNSAFE_IN_PROSE, visible);
}
