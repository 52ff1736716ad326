/**
 * An interrupted `relvo-codex review` leaves no temporary folders: the review runs with a
 * TMPDIR of its own, which the CLI removes once the review has ended, however it ended.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startMarked, survivorsAfter, until } from './support/cli.js';

const RUNNER = join(dirname(new URL(import.meta.url).pathname), 'support', 'review-runner.ts');

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('relvo-codex review', () => {
  it('Ctrl-C (SIGINT to the process group) ends the review and removes its temporary folders', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'relvo-review-test-'));
    dirs.push(dir);
    const report = join(dir, 'work-folder');
    const cli = startMarked(
      process.execPath,
      ['--conditions=relvo-source', '--import', 'tsx', RUNNER],
      { env: { REVIEW_STAND_IN_REPORT: report } },
    );
    await until(
      () => existsSync(report) && readFileSync(report, 'utf8') !== '',
      'the review',
      60_000,
    );
    const work = readFileSync(report, 'utf8');
    expect(existsSync(join(work, 'partial.json'))).toBe(true);
    // what a terminal does on Ctrl-C: SIGINT to the whole foreground group
    process.kill(-cli.pid, 'SIGINT');
    const result = await cli.result;
    expect(result.code).not.toBe(0);
    expect(existsSync(work)).toBe(false);
    expect(existsSync(dirname(work))).toBe(false);
    expect(dirname(work)).not.toBe(tmpdir());
    expect(await survivorsAfter(result.mark)).toEqual([]);
  });
});
