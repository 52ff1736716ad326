/**
 * A review's temporary files (schema output, recordings, the end-to-end tier's work folders, and
 * whatever codex writes) all go to one folder of its own, removed when the review ends however it
 * ends: a Ctrl-C, SIGTERM or SIGHUP stops the review before its own `finally` blocks can run.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SIGNAL_EXIT = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;

/** Points TMPDIR (read by `os.tmpdir()` on every call, inherited by children) at a new folder. */
export function usePrivateTmp(prefix = 'relvo-review-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  for (const name of ['TMPDIR', 'TMP', 'TEMP']) process.env[name] = dir;
  const remove = (): void => {
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', remove);
  for (const [signal, code] of Object.entries(SIGNAL_EXIT)) {
    process.once(signal, () => {
      remove();
      process.exit(code);
    });
  }
  return dir;
}
