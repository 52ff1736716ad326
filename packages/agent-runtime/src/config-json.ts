/**
 * Where a JSON text stops being JSON (RFC 8259), as a line and column a person can go to. Run
 * only after `JSON.parse` failed: the engine's message has no position for some errors and
 * echoes the text for others, so neither is used.
 */

export interface JsonSyntaxPosition {
  /** 1-based. */
  readonly line: number;
  /** 1-based, in UTF-16 code units. */
  readonly column: number;
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const ESCAPE = /\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})/y;

/** Thrown inside the scan only, to unwind to where the text stopped being JSON. */
class Stop extends Error {
  constructor(readonly offset: number) {
    super('json syntax error');
  }
}

function scan(text: string): number | undefined {
  let at = 0;
  const space = (): void => {
    while (at < text.length && ' \t\n\r'.includes(text.charAt(at))) at += 1;
  };
  const expect = (char: string): void => {
    if (text.charAt(at) !== char) throw new Stop(at);
    at += 1;
  };
  const string = (): void => {
    expect('"');
    while (text.charAt(at) !== '"') {
      // raw control characters (and the end of the text) are not allowed in a JSON string
      if (at >= text.length || text.charCodeAt(at) < 0x20) throw new Stop(at);
      if (text.charAt(at) === '\\') {
        ESCAPE.lastIndex = at;
        if (!ESCAPE.test(text)) throw new Stop(at);
        at = ESCAPE.lastIndex;
      } else at += 1;
    }
    at += 1;
  };
  const value = (depth: number): void => {
    if (depth > 512) throw new Stop(at);
    space();
    const char = text.charAt(at);
    if (char === '{' || char === '[') {
      const close = char === '{' ? '}' : ']';
      at += 1;
      space();
      if (text.charAt(at) === close) {
        at += 1;
        return;
      }
      for (;;) {
        if (close === '}') {
          space();
          string();
          space();
          expect(':');
        }
        value(depth + 1);
        space();
        if (text.charAt(at) === close) {
          at += 1;
          return;
        }
        expect(',');
      }
    }
    if (char === '"') {
      string();
      return;
    }
    for (const literal of ['true', 'false', 'null']) {
      if (text.startsWith(literal, at)) {
        at += literal.length;
        return;
      }
    }
    NUMBER.lastIndex = at;
    if (!NUMBER.test(text)) throw new Stop(at);
    at = NUMBER.lastIndex;
  };
  try {
    value(0);
    space();
    return at < text.length ? at : undefined;
  } catch (stop) {
    if (stop instanceof Stop) return stop.offset;
    throw stop;
  }
}

/** The position of the first syntax error in `text`, or undefined when it is valid JSON. */
export function jsonSyntaxPosition(text: string): JsonSyntaxPosition | undefined {
  const offset = scan(text);
  if (offset === undefined) return undefined;
  const before = text.slice(0, offset);
  const lastBreak = before.lastIndexOf('\n');
  return { line: before.split('\n').length, column: offset - lastBreak };
}
