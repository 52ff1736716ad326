/**
 * File references (`fileReferences: 'resolve'`, ADR-0017) on frames recorded from the real
 * binary (`file_ref`): the reference reaches the model as text naming the workspace-relative
 * path, an image also as the bytes the adapter read itself (an inline `image`); a path that
 * escapes the workspace, or is not a regular file, is refused before anything is sent.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TurnInput } from '@relvo-labs/agent-provider';
import { describe, expect, it } from 'vitest';
import { ONE_PIXEL_PNG } from '../../scripts/lib/scenarios-tools.js';
import { createProviderHarness, type ProviderHarness } from '../support/provider-harness.js';
import { replay } from '../support/replay.js';
import { loadRecorded } from '../support/recorded.js';
import { refusal } from '../support/refusals.js';
import { runOn, runToEnd } from '../support/session-runs.js';
import { tempBase } from '../support/session-workspaces.js';

/** A real workspace (references are resolved on disk) plus a secret file outside it. */
function workspace(): { root: string; outside: string } {
  const base = tempBase('relvo-fileref-');
  const root = join(base, 'ws');
  mkdirSync(join(root, 'notes'), { recursive: true });
  writeFileSync(join(root, 'notes', 'a.txt'), 'REFERENCED-CONTENT\n');
  writeFileSync(join(root, 'pic.png'), ONE_PIXEL_PNG);
  const outside = join(base, 'canary-secret.txt');
  writeFileSync(outside, 'CANARY\n');
  symlinkSync(outside, join(root, 'escape.txt'));
  symlinkSync(join(root, 'notes'), join(root, 'inner-link'));
  return { root, outside };
}

/** A session on `root` with `file_ref` replayed (up to `untilSeq`, when given). */
async function open(h: ProviderHarness, root: string, untilSeq?: number) {
  const recorded = loadRecorded('file_ref');
  const replaying = replay(h.transport, recorded, {
    workspace: root,
    ...(untilSeq === undefined ? {} : { untilSeq }),
  });
  const session = await h.provider.createSession({
    options: {},
    workspace: { root, ownership: 'borrowed' },
    sink: h.sessionSink,
  });
  return { session, replaying };
}

/** A session whose handshake is replayed, stopping before the recorded turn/start. */
async function openBeforeTurnStart(h: ProviderHarness, root: string) {
  const turnStart = loadRecorded('file_ref').find((l) => l.frame.method === 'turn/start')!;
  const { session, replaying } = await open(h, root, turnStart.seq);
  await replaying;
  return session;
}

const refs = (...paths: string[]): TurnInput => ({
  parts: [
    { type: 'text', text: 'look' },
    ...paths.map((path) => ({ type: 'file_ref' as const, path })),
  ],
});

describe('file references replayed from the real binary', () => {
  it('the descriptor lists file_ref; the turn carries the relative paths as text and the image bytes inline', async () => {
    const { root } = workspace();
    const h = createProviderHarness({ fileReferences: 'resolve' });
    expect(h.provider.describe().extensions['supportedInputParts']).toEqual(['text', 'file_ref']);
    const { session, replaying } = await open(h, root);
    const { termination } = await runToEnd(session, refs('notes/a.txt', 'pic.png'), 'r');
    expect(termination).toEqual({ outcome: 'succeeded' });
    await replaying;
    const turnStart = h.transport.sent.find((f) => f.method === 'turn/start');
    expect((turnStart?.params as { input: unknown }).input).toEqual([
      {
        type: 'text',
        text: 'look\n\n[referenced file: notes/a.txt]\n\n[referenced file: pic.png]',
      },
      { type: 'image', url: `data:image/png;base64,${ONE_PIXEL_PNG.toString('base64')}` },
    ]);
    // the text is what was recorded against the real binary (the recording attached the image
    // by path; the inline image is checked on the real binary in test/e2e/file-ref-race.test.ts)
    const recorded = loadRecorded('file_ref').find((l) => l.frame.method === 'turn/start')!;
    expect((recorded.frame.params as { input: unknown[] }).input[0]).toEqual(
      (turnStart?.params as { input: unknown[] }).input[0],
    );
    await session.dispose();
  });

  it('a symlink inside the workspace that stays inside resolves to its real relative path', async () => {
    const { root } = workspace();
    const h = createProviderHarness({ fileReferences: 'resolve' });
    const { session, replaying } = await open(h, root);
    await runToEnd(session, refs('inner-link/a.txt'), 'r');
    await replaying.catch(() => undefined);
    const turnStart = h.transport.sent.find((f) => f.method === 'turn/start');
    expect(JSON.stringify(turnStart?.params)).toContain('[referenced file: notes/a.txt]');
    await session.dispose();
  });

  it.each([
    ['a symlink pointing out of the workspace', 'escape.txt', 'file_ref_outside_workspace'],
    ['a .. segment', 'notes/../../canary-secret.txt', 'file_ref_outside_workspace'],
    ['an absolute path', '/etc/hostname', 'file_ref_outside_workspace'],
    ['a missing file', 'notes/missing.txt', 'file_ref_unresolvable'],
  ])(
    '%s is refused before anything is sent, without echoing the path',
    async (_name, path, providerCode) => {
      const { root, outside } = workspace();
      const h = createProviderHarness({ fileReferences: 'resolve' });
      const session = await openBeforeTurnStart(h, root);
      const error = await refusal(runOn(session, refs('notes/a.txt', path), 'x'));
      expect(error).toMatchObject({ code: 'invalid_request', providerCode });
      const text = JSON.stringify(error);
      for (const leak of [path, outside, root]) expect(text).not.toContain(leak);
      expect(h.transport.sent.some((f) => f.method === 'turn/start')).toBe(false);
      await session.dispose();
    },
  );

  it('option off (default): file_ref parts are refused as unsupported and the descriptor lists text only', async () => {
    const { root } = workspace();
    const h = createProviderHarness();
    expect(h.provider.describe().extensions['supportedInputParts']).toEqual(['text']);
    const session = await openBeforeTurnStart(h, root);
    const error = await refusal(runOn(session, refs('notes/a.txt'), 'x'));
    expect(error.code).toBe('capability_unsupported');
    await session.dispose();
  });
});
