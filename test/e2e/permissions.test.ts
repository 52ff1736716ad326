/**
 * Permission requests on the real binary (ADR-0040): the model calls `request_permissions`, the
 * host sees one approval with the path relative to the workspace, and codex honours the answer —
 * granted for the turn or the session, or declined (the empty grant) — in the sandbox it runs the
 * next command in.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  execCommandStep,
  functionCallOutput,
  requestPermissionsStep,
  scriptedUsage,
  textStep,
} from '../../src/testing/index.js';
import { textInput } from '../support/provider-harness.js';
import {
  openRealCodex,
  recordingSink,
  waitForApproval,
  type RealCodex,
} from '../support/real-codex.js';

async function openWithGrantedDir(permissions?: 'bridge' | 'none') {
  const codex = await openRealCodex(permissions === undefined ? {} : { permissions });
  const dir = join(codex.iso.workspace, 'granted');
  mkdirSync(dir, { recursive: true });
  return { codex, dir };
}

/** One turn: ask for write access to `dir`, then write a file in it, then finish. */
function askThenWrite(codex: RealCodex, dir: string, file: string) {
  codex.server.enqueue(
    requestPermissionsStep({ file_system: { write: [dir] } }, 'need to write the report', {
      callId: 'call_perm_1',
    }),
    execCommandStep(`touch ${join(dir, file)}`, { callId: `call_touch_${file}` }),
    textStep('done', { usage: scriptedUsage(5, 1, 0, 0) }),
  );
}

function writeOnly(codex: RealCodex, dir: string, file: string) {
  codex.server.enqueue(
    execCommandStep(`touch ${join(dir, file)}`, { callId: `call_touch_${file}` }),
    textStep('done again', { usage: scriptedUsage(5, 1, 0, 0) }),
  );
}

describe('permission requests, against the real binary', () => {
  it('granted for the turn: shown relative, applied in this turn only', async () => {
    const { codex, dir } = await openWithGrantedDir('bridge');
    expect(codex.provider.describe().extensions['bridgedServerRequests']).toContain(
      'item/permissions/requestApproval',
    );
    askThenWrite(codex, dir, 'one.txt');
    const sink = recordingSink();
    const run = await codex.session.startRun({ input: textInput('write'), sink, runRef: 'p1' });
    const requested = await waitForApproval(sink, 'the permission approval');
    expect(requested.request).toMatchObject({
      kind: 'approval',
      subject: {
        category: 'file_write',
        detail: { paths: [{ path: 'granted', access: 'write' }], network: false },
      },
      allowedModes: ['once', 'session'],
    });
    expect(JSON.stringify(requested.request)).not.toContain(codex.iso.workspace);
    await codex.session.respondToInteraction(requested.providerRef, {
      kind: 'approval',
      decision: 'approved',
      mode: 'once',
    });
    expect(await run.completion).toEqual({ outcome: 'succeeded' });
    expect(existsSync(join(dir, 'one.txt'))).toBe(true);
    const granted = codex.server.requests.map((r) => functionCallOutput(r, 'call_perm_1'));
    expect(granted.find((o) => o !== undefined)).toContain('"scope":"turn"');

    // the next turn runs without the grant
    writeOnly(codex, dir, 'two.txt');
    const next = await codex.session.startRun({ input: textInput('again'), sink, runRef: 'p2' });
    expect(await next.completion).toEqual({ outcome: 'succeeded' });
    expect(existsSync(join(dir, 'two.txt'))).toBe(false);
  });

  it('granted for the session: the next turn writes without a new request', async () => {
    const { codex, dir } = await openWithGrantedDir('bridge');
    askThenWrite(codex, dir, 'one.txt');
    const sink = recordingSink();
    const run = await codex.session.startRun({ input: textInput('write'), sink, runRef: 's1' });
    const requested = await waitForApproval(sink, 'the permission approval');
    await codex.session.respondToInteraction(requested.providerRef, {
      kind: 'approval',
      decision: 'approved',
      mode: 'session',
    });
    expect(await run.completion).toEqual({ outcome: 'succeeded' });
    writeOnly(codex, dir, 'two.txt');
    const next = await codex.session.startRun({ input: textInput('again'), sink, runRef: 's2' });
    expect(await next.completion).toEqual({ outcome: 'succeeded' });
    expect(existsSync(join(dir, 'two.txt'))).toBe(true);
    expect(sink.ofType('interaction.requested')).toHaveLength(1);
  });

  it('denied: the empty grant, nothing written', async () => {
    const { codex, dir } = await openWithGrantedDir('bridge');
    askThenWrite(codex, dir, 'one.txt');
    const sink = recordingSink();
    const run = await codex.session.startRun({ input: textInput('write'), sink, runRef: 'd1' });
    const requested = await waitForApproval(sink, 'the permission approval');
    await codex.session.respondToInteraction(requested.providerRef, {
      kind: 'approval',
      decision: 'denied',
    });
    expect(await run.completion).toEqual({ outcome: 'succeeded' });
    expect(existsSync(join(dir, 'one.txt'))).toBe(false);
  });

  it('by default the tool is not offered: nothing is raised, nothing written', async () => {
    const { codex, dir } = await openWithGrantedDir();
    askThenWrite(codex, dir, 'one.txt');
    const sink = recordingSink();
    const run = await codex.session.startRun({ input: textInput('write'), sink, runRef: 'n1' });
    expect(await run.completion).toEqual({ outcome: 'succeeded' });
    expect(sink.ofType('interaction.requested')).toEqual([]);
    expect(existsSync(join(dir, 'one.txt'))).toBe(false);
  });
});
