/**
 * The suite's own leak check must be able to fail: a nested vitest run whose only test leaves a
 * marked process behind has to exit non-zero and name the survivor.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { testEnv } from './processes.js';
import { REPO_ROOT } from './paths.js';

it('a leaked process fails the run', () => {
  const result = spawnSync(
    process.execPath,
    [
      join(REPO_ROOT, 'node_modules', 'vitest', 'vitest.mjs'),
      'run',
      '--config',
      'test/support/leak-check/fixture.config.ts',
    ],
    {
      cwd: REPO_ROOT,
      env: testEnv({ CI: 'true', RELVO_LEAK_CHECK_GRACE_MS: '500' }),
      encoding: 'utf8',
      timeout: 60_000,
    },
  );
  const output = `${result.stdout}${result.stderr}`;
  expect(result.status).toBe(1);
  expect(output).toMatch(
    /leak check: 1 test-started process\(es\) still alive after the suite: \d+ sleep/,
  );
}, 90_000);
