import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hostExitState, trackUntilClosed } from '../../src/transport/host-exit.js';
import { findSetpriv, launchCommand, resolveExecutable } from '../../src/transport/parent-death.js';

describe('host-exit registry', () => {
  it('listens to exit and SIGINT/SIGTERM/SIGHUP only while a transport is tracked', () => {
    const before = {
      exit: process.listenerCount('exit'),
      SIGINT: process.listenerCount('SIGINT'),
      SIGTERM: process.listenerCount('SIGTERM'),
      SIGHUP: process.listenerCount('SIGHUP'),
    };
    const start = hostExitState();
    const untrackA = trackUntilClosed({ killNow: () => undefined });
    const untrackB = trackUntilClosed({ killNow: () => undefined });
    expect(hostExitState()).toEqual({ tracked: start.tracked + 2, installed: true });
    if (!start.installed) {
      expect(process.listenerCount('exit')).toBe(before.exit + 1);
      expect(process.listenerCount('SIGTERM')).toBe(before.SIGTERM + 1);
    }
    untrackA();
    expect(hostExitState().installed).toBe(true);
    untrackB();
    expect(hostExitState().tracked).toBe(start.tracked);
    if (start.tracked === 0) {
      expect(hostExitState().installed).toBe(false);
      expect(process.listenerCount('exit')).toBe(before.exit);
      expect(process.listenerCount('SIGINT')).toBe(before.SIGINT);
      expect(process.listenerCount('SIGTERM')).toBe(before.SIGTERM);
      expect(process.listenerCount('SIGHUP')).toBe(before.SIGHUP);
    }
  });

  it('a signal the host handles itself is left to the host (no kill, no re-raise)', () => {
    let killed = 0;
    const untrack = trackUntilClosed({ killNow: () => (killed += 1) });
    const hostHandler = (): void => undefined;
    process.on('SIGTERM', hostHandler);
    try {
      process.emit('SIGTERM', 'SIGTERM');
      expect(killed).toBe(0);
    } finally {
      process.removeListener('SIGTERM', hostHandler);
      untrack();
    }
  });
});

describe('parent-death launch', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('resolves like spawn: a path, or a PATH search; not executable or missing is undefined', () => {
    const dir = mkdtempSync(join(tmpdir(), 'relvo-pdeath-'));
    dirs.push(dir);
    const exe = join(dir, 'fake-codex');
    writeFileSync(exe, '#!/bin/sh\n');
    chmodSync(exe, 0o755);
    const plain = join(dir, 'plain');
    writeFileSync(plain, '');
    expect(resolveExecutable(exe, {}, '/')).toBe(exe);
    expect(resolveExecutable('fake-codex', { PATH: `/nonexistent:${dir}` }, '/')).toBe(exe);
    expect(resolveExecutable('./fake-codex', {}, dir)).toBe(exe);
    expect(resolveExecutable(plain, {}, '/')).toBeUndefined();
    expect(resolveExecutable('no-such-codex', { PATH: dir }, '/')).toBeUndefined();
    expect(resolveExecutable(dir, {}, '/')).toBeUndefined();
  });

  it('wraps in setpriv --pdeathsig KILL when available; a missing executable is spawned directly', () => {
    const setpriv = findSetpriv();
    // util-linux setpriv is part of every Linux image this suite runs on (CI included)
    expect(setpriv).not.toBeNull();
    const env = { PATH: process.env.PATH ?? '' };
    expect(launchCommand('sh', ['-c', 'true'], { parentDeathSignal: true, env, cwd: '/' })).toEqual(
      {
        file: setpriv,
        args: ['--pdeathsig', 'KILL', '--', resolveExecutable('sh', env, '/'), '-c', 'true'],
        parentDeathSignal: true,
      },
    );
    // the ENOENT/EACCES spawn failure must surface exactly as without the wrapper
    expect(launchCommand('no-such-codex', [], { parentDeathSignal: true, env, cwd: '/' })).toEqual({
      file: 'no-such-codex',
      args: [],
      parentDeathSignal: false,
    });
    expect(launchCommand('sh', [], { parentDeathSignal: false, env, cwd: '/' })).toEqual({
      file: 'sh',
      args: [],
      parentDeathSignal: false,
    });
  });
});
