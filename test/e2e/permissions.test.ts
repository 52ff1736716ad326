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
} from '../../src/testing/index.js';
import { openRealCodex, type RealCodex, closingStep } from '../support/real-codex.js';
import * as turns from '../support/turns.js';

const ASKED = 'the permission approval';

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
    closingStep('done'),
  );
}

function writeOnly(codex: RealCodex, dir: string, file: string) {
  codex.server.enqueue(
    execCommandStep(`touch ${join(dir, file)}`, { callId: `call_touch_${file}` }),
    closingStep('done again'),
  );
}

describe('permission requests, against the real binary', () => {
  it('granted for the turn: shown relative, applied in this turn only', async () => {
    const { codex, dir } = await openWithGrantedDir('bridge');
    expect(codex.provider.describe().extensions['bridgedServerRequests']).toContain(
      'item/permissions/requestApproval',
    );
    askThenWrite(codex, dir, 'one.txt');
    const { run, sink, asked } = await turns.untilAsked(codex.session, 'write', 'p1', ASKED);
    expect(asked.request).toMatchObject({
      kind: 'approval',
      subject: {
        category: 'file_write',
        detail: { paths: [{ path: 'granted', access: 'write' }], network: false },
      },
      allowedModes: ['once', 'session'],
    });
    expect(JSON.stringify(asked.request)).not.toContain(codex.iso.workspace);
    await turns.answer(codex.session, asked.providerRef, 'once');
    expect(await run.completion).toEqual({ outcome: 'succeeded' });
    expect(existsSync(join(dir, 'one.txt'))).toBe(true);
    const granted = codex.server.requests.map((r) => functionCallOutput(r, 'call_perm_1'));
    expect(granted.find((o) => o !== undefined)).toContain('"scope":"turn"');

    // the next turn runs without the grant
    writeOnly(codex, dir, 'two.txt');
    expect(await turns.end(codex.session, 'again', 'p2', { sink })).toEqual({
      outcome: 'succeeded',
    });
    expect(existsSync(join(dir, 'two.txt'))).toBe(false);
  });

  it('granted for the session: the next turn writes without a new request', async () => {
    const { codex, dir } = await openWithGrantedDir('bridge');
    askThenWrite(codex, dir, 'one.txt');
    const { run, sink, asked } = await turns.untilAsked(codex.session, 'write', 's1', ASKED);
    await turns.answer(codex.session, asked.providerRef, 'session');
    expect(await run.completion).toEqual({ outcome: 'succeeded' });
    writeOnly(codex, dir, 'two.txt');
    expect(await turns.end(codex.session, 'again', 's2', { sink })).toEqual({
      outcome: 'succeeded',
    });
    expect(existsSync(join(dir, 'two.txt'))).toBe(true);
    expect(sink.ofType('interaction.requested')).toHaveLength(1);
  });

  it('denied: the empty grant, nothing written', async () => {
    const { codex, dir } = await openWithGrantedDir('bridge');
    askThenWrite(codex, dir, 'one.txt');
    const { run, asked } = await turns.untilAsked(codex.session, 'write', 'd1', ASKED);
    await turns.answer(codex.session, asked.providerRef, 'denied');
    expect(await run.completion).toEqual({ outcome: 'succeeded' });
    expect(existsSync(join(dir, 'one.txt'))).toBe(false);
  });

  it('by default the tool is not offered: nothing is raised, nothing written', async () => {
    const { codex, dir } = await openWithGrantedDir();
    askThenWrite(codex, dir, 'one.txt');
    const { sink, termination } = await turns.run(codex.session, 'write', 'n1');
    expect(termination).toEqual({ outcome: 'succeeded' });
    expect(sink.ofType('interaction.requested')).toEqual([]);
    expect(existsSync(join(dir, 'one.txt'))).toBe(false);
  });
});
