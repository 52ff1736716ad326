/**
 * Text from the model or the workspace, made safe to show in a terminal (or a page): characters
 * a terminal obeys instead of showing are written out visibly, so what a person reads is what
 * the text holds. A pure function with no terminal knowledge, reusable by any host that renders.
 *
 * Made visible: C0 controls and DEL (`\r`, `\n`, `\t` by name, the rest `\xNN`: ESC is `\x1b`,
 * which defeats every CSI/OSC sequence, since the introducer is shown and not obeyed), C1
 * controls (U+0080–U+009F: U+009B is a one-character CSI for some terminals), bidi marks,
 * embeddings, overrides and isolates (they reorder what is shown), and the line and paragraph
 * separators. Everything else, including emoji joiners and other scripts, passes through.
 */

const UNSAFE =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/g;
// the same set, less newline and tab: prose keeps its lines and indentation
const UNSAFE_IN_PROSE =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/g;
// what JSON.stringify leaves raw that a terminal would still obey (it escapes C0 itself)
const UNSAFE_IN_JSON = /[\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/g;

const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function hex(code: number, width: number): string {
  return code.toString(16).padStart(width, '0');
}

function visible(ch: string): string {
  const named = NAMED[ch];
  if (named !== undefined) return named;
  const code = ch.charCodeAt(0);
  return code < 0x80 ? `\\x${hex(code, 2)}` : `<U+${hex(code, 4).toUpperCase()}>`;
}

/** One line of text (a command, a question, a path, an error): newlines and tabs shown too. */
export function neutraliseLine(text: string): string {
  return text.replace(UNSAFE, visible);
}

/**
 * Streamed prose: as `neutraliseLine`, but newlines and tabs stay. Character by character, so
 * a chunk boundary never changes the result.
 */
export function neutraliseProse(text: string): string {
  return text.replace(UNSAFE_IN_PROSE, visible);
}

/** `JSON.stringify`, with the characters above escaped as `\uXXXX`: the same JSON value. */
export function jsonForTerminal(value: unknown): string {
  // typed string, but undefined for a value JSON cannot hold (undefined, a function)
  const json = JSON.stringify(value) as string | undefined;
  if (json === undefined) return 'null';
  return json.replace(UNSAFE_IN_JSON, (ch) => `\\u${hex(ch.charCodeAt(0), 4)}`);
}
