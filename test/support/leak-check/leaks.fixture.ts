// Not a suite test: run only by leak-check.test.ts through its own vitest config.
import { spawn } from 'node:child_process';
import { expect, it } from 'vitest';
import { testEnv } from '../processes.js';

it('starts a marked process and forgets it', () => {
  const child = spawn('sleep', ['30'], { env: testEnv(), stdio: 'ignore', detached: true });
  child.unref();
  expect(child.pid).toBeGreaterThan(0);
});
