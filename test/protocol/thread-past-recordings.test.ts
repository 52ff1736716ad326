/**
 * The recordings of a thread's past and of the login, on the baseline and an older release:
 * what the real binaries answered to `thread/turns/list`, `thread/revert` and the account calls
 * reads with the adapter's own schemas, as `session.history`, `session.revert` and
 * `provider.login`/`logout` read them.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { accountStatusOf } from '../../src/account.js';
import { turnsListResultSchema } from '../../src/protocol/thread-wire.js';
import { CODEX_APP_SERVER_VERSION } from '../../src/constants.js';
import { REPO_ROOT } from '../support/paths.js';
import { loadTranscript, type TranscriptLine } from '../support/replay.js';

const TRANSCRIPTS = join(REPO_ROOT, 'fixtures', 'transcripts');
/** Every release these scenarios were recorded on. */
const RELEASES = readdirSync(TRANSCRIPTS).filter((v) =>
  ['thread_history', 'thread_revert', 'account_login'].every((s) =>
    existsSync(join(TRANSCRIPTS, v, `${s}.jsonl`)),
  ),
);

it('they are recorded on the baseline and on at least one older release', () => {
  expect(RELEASES).toContain(CODEX_APP_SERVER_VERSION);
  expect(RELEASES.length).toBeGreaterThanOrEqual(2);
});

/** The result of each client request to `method`, in order. */
function resultsOf(lines: readonly TranscriptLine[], method: string): unknown[] {
  const ids = lines
    .filter((l) => l.dir === 'c2s' && l.frame.method === method)
    .map((l) => l.frame.id);
  return ids.map((id) => {
    const reply = lines.find((l) => l.dir === 's2c' && l.frame.id === id && !('method' in l.frame));
    expect(reply?.frame).toHaveProperty('result');
    return reply?.frame.result;
  });
}

describe.each(RELEASES)('codex %s, recorded', (version) => {
  it('thread/turns/list pages a two-turn thread one turn a page, newest first, to the oldest', () => {
    const pages = resultsOf(loadTranscript('thread_history', version), 'thread/turns/list').map(
      (r) => turnsListResultSchema.parse(r),
    );
    expect(pages).toHaveLength(2);
    expect(pages.map((p) => p.data.length)).toEqual([1, 1]);
    expect(typeof pages[0]?.nextCursor).toBe('string');
    expect(pages[1]?.nextCursor ?? undefined).toBeUndefined();
    expect(pages[0]?.data[0]?.id).not.toBe(pages[1]?.data[0]?.id);
  });

  it('thread/revert before the newest listed turn is answered, and codex says the thread was reverted', () => {
    const lines = loadTranscript('thread_revert', version);
    const [listed] = resultsOf(lines, 'thread/turns/list').map((r) =>
      turnsListResultSchema.parse(r),
    );
    const revert = lines.find((l) => l.dir === 'c2s' && l.frame.method === 'thread/revert');
    expect(revert?.frame.params).toMatchObject({ beforeTurnId: listed?.data[0]?.id });
    expect(resultsOf(lines, 'thread/revert')).toHaveLength(1);
    expect(lines.some((l) => l.dir === 's2c' && l.frame.method === 'thread/reverted')).toBe(true);
  });

  it('account/read after an API-key login and after logout reads as the adapter reads it', () => {
    const lines = loadTranscript('account_login', version);
    expect(resultsOf(lines, 'account/login/start')).toHaveLength(1);
    expect(resultsOf(lines, 'account/logout')).toHaveLength(1);
    const states = resultsOf(lines, 'account/read').map((r) => accountStatusOf(r));
    expect(states).toHaveLength(2);
    // the scripted model's provider needs no OpenAI login: codex says so either way
    for (const state of states) expect(state.requiresOpenaiAuth).toBe(false);
  });
});
