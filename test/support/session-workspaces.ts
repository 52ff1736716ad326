/**
 * Real folders for the session tests that resolve file references on disk. Registers nothing
 * when imported: each folder is removed when the test that made it finishes.
 */
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';

/** A fresh folder under the temp dir (its real path), removed when the current test finishes. */
export function tempBase(prefix: string): string {
  const base = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  onTestFinished(() => {
    rmSync(base, { recursive: true, force: true });
  });
  return base;
}
