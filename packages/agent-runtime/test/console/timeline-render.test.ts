// @vitest-environment happy-dom
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/**
 * Messages, commands and file changes of the console's timeline drawn from envelopes in a DOM
 * (happy-dom): markdown drawn with elements and never parsed as HTML, model and workspace text
 * neutralised, one entry per tool call and per turn's diff, updated in place.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { DrawnTimeline } from './timeline-page.js';
import { commandActivity, diffOf, PATCH } from './timeline-log.js';

let t: DrawnTimeline;

beforeEach(() => {
  t = new DrawnTimeline();
});

describe('a message', () => {
  it('is markdown drawn with elements: emphasis, code, a list, a link beside its target', () => {
    const msg = t.message(
      '**Done**: ran `ls`.\n\n- first\n- second\n\n- [x] checked\n- [ ] open\n\nSee [the docs](https://example.com/a?b=1).',
    );
    expect(msg.querySelector('strong')?.textContent).toBe('Done');
    expect(msg.querySelector('code')?.textContent).toBe('ls');
    const items = [...msg.querySelectorAll('li')].map((li) => li.textContent);
    expect(items).toEqual(['first', 'second', '[x] checked', '[ ] open']);
    const a = msg.querySelector('a');
    expect(a?.getAttribute('href')).toBe('https://example.com/a?b=1');
    expect(a?.getAttribute('rel')).toBe('noopener noreferrer');
    expect(a?.textContent).toBe('the docs');
    expect(msg.querySelector('.md-target')?.textContent).toBe(' <https://example.com/a?b=1>');
  });

  it('streams in pieces into one entry, drawn as the whole text so far', () => {
    t.feed({ type: 'run.message_delta', text: 'Hello **wor' });
    expect(t.one('.entry.message').textContent).toBe('Hello **wor');
    t.feed({ type: 'run.message_delta', text: 'ld** again' });
    const msg = t.one('.entry.message');
    expect(msg.querySelector('strong')?.textContent).toBe('world');
    expect(msg.textContent).toBe('Hello world again');
  });

  it('redraws only its last block as it grows; a reference defined later redraws the blocks before it', () => {
    t.feed({ type: 'run.message_delta', text: 'See [the docs][d].\n\nPara tw' });
    const first = t.root.querySelector('.entry.message p');
    expect(first?.textContent).toBe('See [the docs][d].');
    t.feed({ type: 'run.message_delta', text: 'o\n\n' });
    const paragraphs = t.root.querySelectorAll('.entry.message p');
    expect(paragraphs[0]).toBe(first);
    expect(paragraphs[1]?.textContent).toBe('Para two');
    t.feed({ type: 'run.message_delta', text: '[d]: https://example.com/d' });
    expect(t.one('.entry.message a').getAttribute('href')).toBe('https://example.com/d');
    expect(t.root.querySelector('.entry.message p')).not.toBe(first);
  });

  it('decodes the character references people type, a bidi one made visible; others stay as written, code untouched', () => {
    const msg = t.message('Fish &amp; chips &#x202E;x &copy; `&amp;`\n\n<div>\nblock html\n</div>');
    expect(msg.querySelector('p')?.textContent).toBe('Fish & chips <U+202E>x &copy; &amp;');
    expect(msg.querySelector('.md-raw')?.textContent).toBe('<div>\nblock html\n</div>');
    expect(msg.querySelectorAll('.md-raw *')).toHaveLength(0);
  });

  it('goes on in the same entry across an internal record, and a new entry after a visible one', () => {
    t.feed(
      { type: 'run.message_delta', text: 'one ' },
      { type: 'run.state_changed', from: 'starting', to: 'running' },
      { type: 'run.message_delta', text: 'two' },
    );
    expect(t.one('.entry.message').textContent).toBe('one two');
    t.feed(
      {
        type: 'run.tool_activity',
        toolName: 'web_search',
        phase: 'succeeded',
        detail: { activityId: 'tool-1', query: 'q' },
      },
      { type: 'run.message_delta', text: 'three' },
    );
    expect([...t.root.querySelectorAll('.entry.message')].map((m) => m.textContent)).toEqual([
      'one two',
      'three',
    ]);
  });

  it('shows raw HTML as text, never loads an image, never links a script address, neutralises control and bidi characters', () => {
    const msg = t.message(
      '<img src=x onerror="window.__owned=1"><b>bold</b> \u001b[31mred\u202egnp.exe\n\n![pic](https://example.com/p.png) [click](javascript:alert(1))',
    );
    expect(msg.querySelectorAll('img, b, script, a')).toHaveLength(0);
    expect(msg.textContent).toContain(
      '<img src=x onerror="window.__owned=1"><b>bold</b> \\x1b[31mred<U+202E>gnp.exe',
    );
    expect(msg.querySelector('.md-image')?.textContent).toBe(
      '[image: pic] <https://example.com/p.png>',
    );
    expect(msg.textContent).toContain('click <javascript:alert(1)>');
  });
});

describe('a command', () => {
  it('is one entry per call, a shell line that gains its exit code, duration and output size in place, collapsed', () => {
    const command = "bash -lc 'echo hi'";
    t.feed(commandActivity('invoked', { activityId: 'tool-1', command, cwd: '.' }));
    const entry = t.one('.entry.tool');
    expect(entry.dataset.phase).toBe('invoked');
    expect(entry.querySelector('.tool-state')?.textContent).toBe('running');
    t.feed(
      commandActivity('succeeded', {
        activityId: 'tool-1',
        command,
        cwd: '.',
        status: 'completed',
        exitCode: 0,
        durationMs: 1234,
        outputBytes: 3,
      }),
    );
    expect(t.one('.entry.tool')).toBe(entry);
    expect(entry.dataset.phase).toBe('succeeded');
    expect(entry.querySelector('.shell-line')?.textContent).toBe(`$ ${command}`);
    expect(entry.querySelector('.exit')?.textContent).toBe('exit 0');
    expect(entry.querySelector('.duration')?.textContent).toBe('1.2 s');
    expect(entry.querySelector('.output-size')?.textContent).toBe('3 B of output');
    const details = entry.querySelector('details');
    expect(details?.open).toBe(false);
    // the rest of the detail is inside, nothing dropped
    expect(details?.querySelector('.tool-body')?.textContent).toContain('cwd');
  });

  it('a failing command says so, with its exit code marked; two calls are two entries', () => {
    t.feed(
      commandActivity('invoked', { activityId: 'tool-1', command: 'true' }),
      commandActivity('invoked', { activityId: 'tool-2', command: 'false\u202e' }),
      commandActivity('failed', {
        activityId: 'tool-2',
        command: 'false\u202e',
        status: 'failed',
        exitCode: 1,
        durationMs: 5,
      }),
    );
    const entries = t.root.querySelectorAll<HTMLElement>('.entry.tool');
    expect(entries).toHaveLength(2);
    const failed = entries[1] as HTMLElement;
    expect(failed.classList.contains('state-failed')).toBe(true);
    expect(failed.querySelector('.exit.exit-fail')?.textContent).toBe('exit 1');
    expect(failed.querySelector('.shell-line')?.textContent).toBe('$ false<U+202E>');
  });
});

describe('a file change', () => {
  it('is a per-file diff with added and removed lines marked, replaced in place as the turn goes on', () => {
    t.feed(
      diffOf([{ path: 'notes/hello.txt', change: 'add', added: 1, removed: 0 }], {
        patch:
          'diff --git a/notes/hello.txt b/notes/hello.txt\n--- /dev/null\n+++ b/notes/hello.txt\n@@ -0,0 +1 @@\n+LINE ONE\n',
      }),
    );
    const entry = t.one('.entry.diff');
    t.feed(
      diffOf(
        [
          { path: 'notes/hello.txt', change: 'add', added: 2, removed: 0 },
          { path: 'src/app.ts', change: 'update', added: 1, removed: 2 },
        ],
        { patch: PATCH },
      ),
    );
    expect(t.one('.entry.diff')).toBe(entry);
    const files = entry.querySelectorAll<HTMLElement>('.diff-file');
    expect([...files].map((f) => f.dataset.path)).toEqual(['notes/hello.txt', 'src/app.ts']);
    const [added, updated] = [...files] as [HTMLElement, HTMLElement];
    expect([...added.querySelectorAll('ins.diff-add')].map((n) => n.textContent)).toEqual([
      '+LINE ONE CHANGED',
      '+LINE TWO',
    ]);
    expect(added.querySelector('.diff-change')?.textContent).toBe(' added ');
    expect(added.querySelector('.diff-note')?.textContent).toBe('\\ No newline at end of file');
    expect([...updated.querySelectorAll('del.diff-del')].map((n) => n.textContent)).toEqual([
      '-const b = 2;',
      '---- not a header',
    ]);
    expect(updated.querySelectorAll('.diff-ctx')).toHaveLength(1);
    expect(updated.querySelector('.diff-counts')?.textContent).toBe('+1 −2');
  });

  it('without the patch text: the files and their counts, and why there are no lines', () => {
    t.feed(
      diffOf([{ path: '<outside-workspace>', change: 'add', added: 1, removed: 0 }], {
        patchWithheld: 'outside_workspace',
      }),
    );
    const entry = t.one('.entry.diff');
    expect(entry.querySelectorAll('.diff-line')).toHaveLength(0);
    expect(entry.textContent).toContain('<outside-workspace>');
    expect(entry.textContent).toContain('withheld: a file lies outside the workspace');
  });
});
