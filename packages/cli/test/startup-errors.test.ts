/**
 * `run` refuses what it cannot start with exit 2, the path, the reason and what to do — never
 * "unexpected error" — and before any codex runs.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { openSqliteEventStore } from '@relvo-labs/agent-runtime';
import { runCli, survivorsAfter } from './support/cli.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'relvo-cli-startup-'));
  dirs.push(d);
  return d;
}

async function refused(args: readonly string[], env: Record<string, string> = {}) {
  const result = await runCli(['run', 'hi', ...args], {
    env,
    unset: ['RELVO_CODEX_EVENT_LOG'],
    timeoutMs: 60_000,
  });
  expect(result.stderr).not.toContain('unexpected error');
  expect(result.code, result.stderr).toBe(2);
  expect(result.stdout).toBe('');
  expect(await survivorsAfter(result.mark)).toEqual([]);
  return result.stderr;
}

describe('run: refusals before anything starts exit 2 and say what to do', () => {
  it('a --cwd that does not exist, or is a file', async () => {
    const dir = tempDir();
    const log = ['--event-log', join(dir, 'events.sqlite'), '--no-config'];
    const missing = join(dir, 'nope');
    expect(await refused([...log, '--cwd', missing])).toContain(`--cwd ${missing}: no such folder`);
    writeFileSync(join(dir, 'file'), '');
    expect(await refused([...log, '--cwd', join(dir, 'file')])).toContain('not a folder');
  });

  it('an --event-log that is a folder, or whose folder cannot be created', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'logs'));
    expect(await refused(['--no-config', '--event-log', join(dir, 'logs')])).toContain(
      `event log ${join(dir, 'logs')} is a folder; name a file, e.g. --event-log`,
    );
    writeFileSync(join(dir, 'plain'), '');
    const through = join(dir, 'plain', 'events.sqlite');
    const stderr = await refused(['--no-config', '--event-log', through]);
    expect(stderr).toContain(`event log ${through}: its folder cannot be created`);
    expect(stderr).toContain('--event-log FILE');
  });

  it('the default event log held exclusively by another program: says so and how to pick another', async () => {
    const state = tempDir();
    const path = join(state, 'relvo-codex', 'events.sqlite');
    mkdirSync(join(state, 'relvo-codex'));
    await openSqliteEventStore({ path }).close();
    // runs share a log; only a program that locks the whole file (as relvo-codex once did) blocks it
    const holder = new Database(path);
    holder.pragma('locking_mode = EXCLUSIVE');
    holder.exec('BEGIN IMMEDIATE; COMMIT;');
    try {
      const stderr = await refused(['--no-config'], { XDG_STATE_HOME: state });
      // the holder here is this test's own process
      expect(stderr).toContain(`event log ${path} is held exclusively by process ${process.pid} (`);
      expect(stderr).toContain('--event-log FILE');
    } finally {
      holder.close();
    }
  });

  it('--profile __proto__ (or constructor) is an unknown profile', async () => {
    const log = ['--no-config', '--event-log', join(tempDir(), 'events.sqlite')];
    for (const name of ['__proto__', 'constructor']) {
      const stderr = await refused([...log, '--profile', name]);
      expect(stderr).toContain(`no profile "${name}"`);
      expect(stderr).toContain('pick one with --profile NAME: codex-readonly');
    }
  });

  it('a profile naming a provider relvo-codex does not have', async () => {
    const dir = tempDir();
    const file = join(dir, 'relvo.config.json');
    writeFileSync(
      file,
      JSON.stringify({ defaultProfile: 'p', profiles: { p: { provider: 'nope' } } }),
    );
    const stderr = await refused(['--config', file, '--event-log', join(dir, 'events.sqlite')]);
    expect(stderr).toContain(`${file}: profiles.p.provider is "nope"`);
    expect(stderr).toContain('has only the provider "codex"');
  });
});
