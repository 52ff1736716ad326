/**
 * Resume (ADR-0016, amended): the same workspace spelled differently — a trailing slash, `/.`,
 * a symlink to it — is the same workspace; another folder is not. Checked on the replayed
 * handshake: a record whose codex home differs on purpose is refused after the workspace check,
 * so `recovery_codex_home_mismatch` proves the workspace was accepted.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isProviderRejection, type ProviderRecoveryRecord } from '@relvo-labs/agent-provider';
import { afterEach, describe, expect, it } from 'vitest';
import { wireRejection, wireRefusalOf } from '../../src/rpc/errors.js';
import { placeDigest, workspaceDigest } from '../../src/session/recovery.js';
import { createProviderHarness } from '../support/provider-harness.js';
import { loadRecorded, replayRecorded } from '../support/recorded.js';
import { codexRecord, threadOpaque } from '../support/recovery-records.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function places(): { ws: string; link: string; other: string } {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'relvo-resume-ws-')));
  dirs.push(base);
  mkdirSync(join(base, 'ws'));
  mkdirSync(join(base, 'other'));
  symlinkSync(join(base, 'ws'), join(base, 'link'));
  return { ws: join(base, 'ws'), link: join(base, 'link'), other: join(base, 'other') };
}

function recordFor(ws: string, digest = placeDigest('workspace', ws)): ProviderRecoveryRecord {
  return codexRecord(
    threadOpaque({
      threadId: 't',
      codexHome: placeDigest('codex-home', '/not/the/replayed/home'),
      workspace: digest,
    }),
  );
}

async function providerCodeOfResume(rec: ProviderRecoveryRecord, root: string) {
  const h = createProviderHarness({ persistence: 'thread' });
  const afterInit = loadRecorded('resume').find((l) => l.frame.method === 'configWarning')!.seq;
  const replaying = replayRecorded(h, 'resume', { untilSeq: afterInit });
  const error = await h.provider.resumeSession!(rec, {
    options: {},
    workspace: { root, ownership: 'borrowed' },
    sink: h.sessionSink,
  }).then(
    () => undefined,
    (e: unknown) => e,
  );
  await replaying.catch(() => undefined);
  if (!isProviderRejection(error)) throw new Error('expected a ProviderRejection');
  return error.agentError.providerCode;
}

describe('the workspace of a recovery record, however it is spelled', () => {
  it.each([
    ['a trailing slash', (p: ReturnType<typeof places>) => `${p.ws}/`],
    ['a trailing /.', (p: ReturnType<typeof places>) => `${p.ws}/.`],
    ['a symlink to it', (p: ReturnType<typeof places>) => p.link],
    ['a symlink with a trailing slash', (p: ReturnType<typeof places>) => `${p.link}/`],
  ])('%s is the same workspace', async (_name, spell) => {
    const p = places();
    expect(await providerCodeOfResume(recordFor(p.ws), spell(p))).toBe(
      'recovery_codex_home_mismatch',
    );
  });

  it('a record exported through a symlink resumes at the real folder', async () => {
    const p = places();
    // what a session opened through the symlink exports
    const exported = recordFor(p.link, workspaceDigest(p.link));
    expect(await providerCodeOfResume(exported, `${p.ws}/.`)).toBe('recovery_codex_home_mismatch');
  });

  it('another folder is still another workspace', async () => {
    const p = places();
    expect(await providerCodeOfResume(recordFor(p.ws), p.other)).toBe(
      'recovery_workspace_mismatch',
    );
  });
});

describe('a thread still open elsewhere', () => {
  it('the measured refusal is told apart by a bounded token; its text is never copied', () => {
    const rejection = wireRejection('thread/resume', {
      code: -32600,
      message: 'thread 0193-canary already has an active writer',
    });
    expect(wireRefusalOf(rejection)).toBe('thread_active_writer');
    expect(JSON.stringify(rejection.agentError)).not.toContain('canary');
    // the same text answering another method, or another code, is no such refusal
    expect(
      wireRefusalOf(
        wireRejection('thread/start', { code: -32600, message: 'x already has an active writer' }),
      ),
    ).toBeUndefined();
    expect(
      wireRefusalOf(
        wireRejection('thread/resume', { code: -32603, message: 'already has an active writer' }),
      ),
    ).toBeUndefined();
    expect(
      wireRefusalOf(wireRejection('thread/resume', { code: -32600, message: 'no rollout found' })),
    ).toBeUndefined();
  });
});
