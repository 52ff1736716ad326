/**
 * History on the real binary (`persistence: 'thread'`): `session.history({ cursor, limit })`
 * pages a thread's turns newest first over `thread/turns/list`, in the shapes of live turns, and
 * keeps nothing between pages: paging a 50-turn thread leaves the adapter's and codex's memory
 * flat.
 */
import { isProviderRejection, type HistoryPage } from '@relvo-labs/agent-provider';
import { describe, expect, it } from 'vitest';
import { textStep } from '../../src/testing/index.js';
import { textInput, texts } from '../support/provider-harness.js';
import {
  openRealCodex,
  recordingSink,
  waitForEvent,
  type RealCodex,
} from '../support/real-codex.js';

async function turn(codex: RealCodex, text: string, runRef: string) {
  const sink = recordingSink();
  const run = await codex.session.startRun({ input: textInput(text), sink, runRef });
  expect(await run.completion).toEqual({ outcome: 'succeeded' });
  return sink;
}

const textOf = (turn: HistoryPage['turns'][number]): string =>
  turn.events.map((e) => (e.payload.type === 'run.message_delta' ? e.payload.text : '')).join('');
const inputOf = (turn: HistoryPage['turns'][number]): string =>
  (turn.input?.parts ?? []).map((p) => (p.type === 'text' ? p.text : '')).join('');

describe('history against the real binary', { timeout: 120_000 }, () => {
  it('pages a 50-turn thread newest first, in live shapes, with flat memory', async () => {
    const codex = await openRealCodex({ persistence: 'thread' });
    const filler = 'x'.repeat(2000);
    for (let i = 1; i <= 50; i += 1) codex.server.enqueue(textStep([`answer ${i} `, filler]));
    let live = '';
    for (let i = 1; i <= 50; i += 1) {
      const sink = await turn(codex, `question ${i}`, `h${i}`);
      if (i === 50) live = texts(sink);
    }
    const pages: HistoryPage[] = [];
    const rss: number[] = [];
    let cursor: string | undefined;
    do {
      const page = await codex.session.history!({ limit: 7, ...(cursor ? { cursor } : {}) });
      pages.push(page);
      cursor = page.nextCursor;
      rss.push((await codex.session.resourceUsage())?.rssBytes ?? 0);
    } while (cursor !== undefined);
    expect(pages).toHaveLength(8);
    const turns = pages.flatMap((p) => p.turns);
    expect(turns.map(inputOf)).toEqual(Array.from({ length: 50 }, (_, i) => `question ${50 - i}`));
    expect(turns.every((t) => t.outcome === 'succeeded')).toBe(true);
    // the newest turn reads as it streamed
    expect(textOf(turns[0]!)).toBe(live);
    expect(textOf(turns[49]!)).toBe(`answer 1 ${filler}`);
    // flat: the last pages cost codex no more memory than the first (0.1 MB measured on
    // 0.171.0); the bound is far below what loading the thread costs (docs/performance.md)
    const growthMb = (Math.max(...rss.slice(1)) - rss[0]!) / 2 ** 20;
    expect(growthMb).toBeLessThan(16);
  });

  it('lists a running turn as running with its input; a foreign cursor is refused typed', async () => {
    const codex = await openRealCodex({ persistence: 'thread' });
    codex.server.enqueue(
      textStep('done one'),
      textStep(['slow ', 'answer'], { stallAfterDeltas: 1 }),
    );
    await turn(codex, 'first question', 'r1');
    const sink = recordingSink();
    const slow = await codex.session.startRun({
      input: textInput('slow question'),
      sink,
      runRef: 'r2',
    });
    await waitForEvent(sink, (e) => e.payload.type === 'run.message_delta', 'the slow delta');
    const page = await codex.session.history!({});
    expect(page.nextCursor).toBeUndefined();
    expect(page.turns.map((t) => [inputOf(t), t.outcome, textOf(t)])).toEqual([
      ['slow question', 'running', ''],
      ['first question', 'succeeded', 'done one'],
    ]);
    await slow.interrupt('test');
    await slow.completion;
    expect((await codex.session.history!({ limit: 1 })).turns[0]?.outcome).toBe('interrupted');
    const foreign = await codex.session.history!({ cursor: 'not-a-cursor!' }).catch(
      (e: unknown) => e,
    );
    expect(isProviderRejection(foreign) && foreign.agentError.code).toBe('invalid_request');
    const revert = await codex.session.revert!({ turns: 1 });
    expect(revert.turns).toBe(1);
    expect((await codex.session.history!({})).turns.map(inputOf)).toEqual(['first question']);
  });

  it('an ephemeral session has no history and does not declare one', async () => {
    const codex = await openRealCodex();
    expect('history' in codex.session).toBe(false);
    expect(codex.provider.describe().session.history).toBe(false);
  });
});
