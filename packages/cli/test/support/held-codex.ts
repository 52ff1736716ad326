/**
 * A codex whose start-up the test holds: anything but `--version` waits (bounded) until `release()`, so a
 * signal can be sent while the CLI is starting codex. `--version` answers at once, and so do the
 * first `passFirst` other starts (`run` asks a codex of its own about the login before the turn's).
 */
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findCodex } from '../../src/codex/locate.js';

export interface HeldCodex {
  readonly path: string;
  /** Whether codex was asked to start its app-server. */
  starting(): boolean;
  release(): void;
  cleanup(): void;
}

export function heldCodex(holdSeconds = 30, passFirst = 0): HeldCodex {
  const real = findCodex({ env: {} });
  if (!real.found) throw new Error('the pinned codex is missing: run npm ci');
  const dir = mkdtempSync(join(tmpdir(), 'relvo-held-codex-'));
  const path = join(dir, 'codex');
  const polls = holdSeconds * 10;
  writeFileSync(
    path,
    [
      '#!/bin/sh',
      // codex's own config flags come before `app-server`: hold everything but the version probe
      'if [ "$1" != "--version" ]; then',
      `  echo >> '${dir}/starts'`,
      `  if [ "$(wc -l < '${dir}/starts')" -gt ${passFirst} ]; then`,
      `  : > '${dir}/starting'`,
      '  i=0',
      `  while [ ! -e '${dir}/go' ] && [ $i -lt ${polls} ]; do sleep 0.1; i=$((i+1)); done`,
      '  fi',
      'fi',
      `exec '${real.path}' "$@"`,
      '',
    ].join('\n'),
  );
  chmodSync(path, 0o755);
  return {
    path,
    starting: () => existsSync(join(dir, 'starting')),
    release: () => {
      writeFileSync(join(dir, 'go'), '');
    },
    cleanup: () => {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
