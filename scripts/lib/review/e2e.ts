/**
 * Runs the real-binary end-to-end tier against one codex through the single override
 * (`CODEX_UNDER_TEST`) and returns the result of every test, keyed `<file> > <full name>`.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { CODEX_UNDER_TEST_ENV } from '../../../src/testing/codex-binary.js';

/** The tests that drive a real codex binary (the launcher is looked up beside the binary). */
export const REAL_BINARY_SUITE = [
  'test/e2e',
  'test/transport/real-codex.test.ts',
  'test/testing/model-server.test.ts',
] as const;

export type TestOutcome = 'passed' | 'failed' | 'skipped';

export interface E2eResult {
  readonly passed: number;
  readonly failed: number;
  readonly skipped: number;
  readonly tests: Readonly<Record<string, TestOutcome>>;
}

interface VitestJson {
  readonly testResults?: readonly {
    readonly name: string;
    readonly status?: string;
    readonly message?: string;
    readonly assertionResults?: readonly { readonly fullName: string; readonly status: string }[];
  }[];
}

export function runRealBinarySuite(options: {
  readonly repoRoot: string;
  readonly binary: string;
  readonly logFile: string;
}): E2eResult {
  const work = mkdtempSync(join(tmpdir(), 'relvo-review-e2e-'));
  const output = join(work, 'vitest.json');
  try {
    const run = spawnSync(
      process.execPath,
      [
        join(options.repoRoot, 'node_modules', 'vitest', 'vitest.mjs'),
        'run',
        // the default reporter's output (failures with their messages) goes to the log
        '--reporter=default',
        '--reporter=json',
        `--outputFile.json=${output}`,
        ...REAL_BINARY_SUITE,
      ],
      {
        cwd: options.repoRoot,
        env: { ...process.env, [CODEX_UNDER_TEST_ENV]: options.binary },
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
      },
    );
    writeFileSync(options.logFile, `${run.stdout}\n${run.stderr}`);
    let parsed: VitestJson;
    try {
      parsed = JSON.parse(readFileSync(output, 'utf8')) as VitestJson;
    } catch {
      return { passed: 0, failed: 1, skipped: 0, tests: { '(suite)': 'failed' } };
    }
    const tests: Record<string, TestOutcome> = {};
    for (const file of parsed.testResults ?? []) {
      const name = relative(options.repoRoot, file.name);
      const results = file.assertionResults ?? [];
      // a file that failed to load has no assertions: count it as one failure
      if (results.length === 0) tests[`${name} > (file)`] = 'failed';
      for (const r of results) {
        tests[`${name} > ${r.fullName}`] =
          r.status === 'passed' ? 'passed' : r.status === 'failed' ? 'failed' : 'skipped';
      }
    }
    if (run.status !== 0 && !Object.values(tests).includes('failed')) {
      tests['(suite exit status)'] = 'failed';
    }
    const sorted = Object.fromEntries(Object.entries(tests).sort(([a], [b]) => a.localeCompare(b)));
    const count = (o: TestOutcome): number => Object.values(sorted).filter((v) => v === o).length;
    return {
      passed: count('passed'),
      failed: count('failed'),
      skipped: count('skipped'),
      tests: sorted,
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
