/**
 * Resume on the real binary (ADR-0016, amended): the same workspace spelled differently — here a
 * symlink to it with a trailing slash — resumes the thread.
 */
import { symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scriptedUsage, textStep } from '../../src/testing/index.js';
import { textInput, texts } from '../support/provider-harness.js';
import { openRealCodex, recordingSink, type RealCodex } from '../support/real-codex.js';

async function oneTurnAndExport(codex: RealCodex) {
  codex.server.enqueue(textStep('Noted.', { usage: scriptedUsage(9, 2, 0, 0) }));
  const run = await codex.session.startRun({
    input: textInput('remember'),
    sink: recordingSink(),
    runRef: 'first',
  });
  expect(await run.completion).toEqual({ outcome: 'succeeded' });
  return codex.session.exportRecoveryRecord!();
}

describe('resume against the real binary: the workspace spelled differently', () => {
  it('a symlink to the workspace, with a trailing slash, resumes the thread', async () => {
    const codex = await openRealCodex({ persistence: 'thread' });
    const record = await oneTurnAndExport(codex);
    await codex.session.dispose();
    const link = join(dirname(codex.iso.workspace), 'ws-link');
    symlinkSync(codex.iso.workspace, link);
    const resumed = await codex.provider.resumeSession!(record, {
      options: {},
      workspace: { root: `${link}/`, ownership: 'borrowed' },
      sink: recordingSink(),
    });
    try {
      codex.server.enqueue(textStep('again', { usage: scriptedUsage(9, 2, 0, 0) }));
      const sink = recordingSink();
      const run = await resumed.startRun({ input: textInput('next'), sink, runRef: 'second' });
      expect(await run.completion).toEqual({ outcome: 'succeeded' });
      expect(texts(sink)).toBe('again');
      expect(JSON.stringify(codex.server.requests[1]?.body)).toContain('remember');
    } finally {
      await resumed.dispose();
    }
  });
});
