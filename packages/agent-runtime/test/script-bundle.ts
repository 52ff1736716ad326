/**
 * A TypeScript program of the suite that runs in a child process (a runtime, host or model)
 * started as one bundled JavaScript file (scripts/bundle-script.mjs): loading the workspace's
 * sources through tsx costs several times the CPU of the work most of these children do. Each
 * script is bundled once per test run, shared by the run's workers, removed after the run.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';

const REPO_ROOT = resolve(import.meta.dirname, '../../..');
// the suite's run marker (set by its global setup): one folder of bundles a run
const RUN_ID_VAR = 'RELVO_TEST_RUN_ID';

/** Inside the repository, so that the bundles' imports find its node_modules. */
function bundleDir(): string {
  return join(REPO_ROOT, `.vitest-scripts-${process.env[RUN_ID_VAR] ?? 'local'}`);
}

const built = new Map<string, string>();

/** `node` arguments that run `script` (a .ts file): its bundle, built first if need be. */
export function scriptArgv(script: string): string[] {
  const known = built.get(script);
  if (known !== undefined) return [known];
  const key = createHash('sha256').update(script).digest('hex').slice(0, 12);
  const out = join(bundleDir(), `${basename(script).replace(/\.[cm]?ts$/, '')}-${key}.mjs`);
  if (!existsSync(out)) {
    mkdirSync(bundleDir(), { recursive: true });
    // written aside, then renamed: another worker may be bundling the same script
    const aside = `${out}.${String(process.pid)}.tmp`;
    const run = spawnSync(
      process.execPath,
      [join(REPO_ROOT, 'scripts/bundle-script.mjs'), script, aside],
      { encoding: 'utf8', timeout: 120_000 },
    );
    if (run.status !== 0) throw new Error(`bundling ${script} failed:\n${run.stderr}`);
    renameSync(aside, out);
  }
  built.set(script, out);
  return [out];
}

/** Removes this run's bundles (the suite's global teardown). */
export function removeScriptBundles(): void {
  rmSync(bundleDir(), { recursive: true, force: true });
}
