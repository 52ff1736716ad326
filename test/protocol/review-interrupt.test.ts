/**
 * An interrupted review leaves no temporary folders: it runs with a TMPDIR of its own, removed on
 * Ctrl-C (SIGINT to the terminal's foreground group) as on any other ending.
 */
import { spawn } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/paths.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Polls (bounded) until `probe` holds. */
async function until(probe: () => boolean, what: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('npm run review, interrupted', () => {
  it('Ctrl-C while the schema is generated removes every temporary folder it made', async () => {
    const root = mkdtempSync(join(tmpdir(), 'relvo-review-int-'));
    dirs.push(root);
    const parent = join(root, 'tmp');
    mkdirSync(parent);
    // a stand-in codex: names a release no report has, then hangs in `generate-json-schema`
    const codex = join(root, 'codex');
    const seen = join(root, 'out-folder');
    writeFileSync(
      codex,
      [
        '#!/bin/sh',
        'if [ "$1" = "--version" ]; then echo "codex-cli 0.0.1"; exit 0; fi',
        'for a in "$@"; do [ -n "$next" ] && echo "$a" > ' +
          `'${seen}'` +
          ' && next=; [ "$a" = "--out" ] && next=1; done',
        'exec sleep 60',
        '',
      ].join('\n'),
    );
    chmodSync(codex, 0o755);
    const review = spawn(
      process.execPath,
      ['--import', 'tsx', join(REPO_ROOT, 'scripts', 'review.ts'), '--binary', codex],
      { cwd: REPO_ROOT, env: { ...process.env, TMPDIR: parent }, detached: true, stdio: 'ignore' },
    );
    const exited = new Promise<number | null>((resolve) => review.on('exit', resolve));
    try {
      await until(
        () => existsSync(seen) && readFileSync(seen, 'utf8') !== '',
        'the schema step',
        60_000,
      );
      const out = readFileSync(seen, 'utf8').trim();
      // codex writes into `<work>/json`: the work folder the review made is there
      expect(existsSync(dirname(out))).toBe(true);
      // the review's own folder, not the parent the test gave it
      expect(out.startsWith(join(parent, 'relvo-review-'))).toBe(true);
      process.kill(-(review.pid ?? 0), 'SIGINT');
      const code = await Promise.race([
        exited,
        new Promise<'late'>((r) =>
          setTimeout(() => {
            r('late');
          }, 30_000),
        ),
      ]);
      expect(code).not.toBe('late');
      // tsx's compile cache (tsx-<uid>) is the runner's, kept on purpose between runs
      expect(readdirSync(parent).filter((name) => !name.startsWith('tsx-'))).toEqual([]);
    } finally {
      try {
        process.kill(-(review.pid ?? 0), 'SIGKILL');
      } catch {
        // already gone
      }
    }
    // its own bounds (60 s to reach the schema step, 30 s to exit), not the suite's default 30 s:
    // a cold start of the review through tsx on a loaded 2-core machine took longer than that
  }, 120_000);
});
