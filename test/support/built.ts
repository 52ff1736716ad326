/**
 * Tests that start the CLI start the built one (what `relvo-codex` runs): a start of its sources
 * through a TypeScript loader costs several times the CPU, and those tests start it hundreds of
 * times. `npm test` builds first; a run of a few files after an edit finds the build older than
 * the sources, and the first file that needs it builds once while the others wait on a lock.
 */
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { BUILT_CLI, ROOT, build, buildIsCurrent } from '../../scripts/build-current.mjs';

const LOCK = join(ROOT, 'node_modules/.cache/relvo-build.lock');
/** A build takes about a minute alone; a loaded machine several. */
const WAIT_MS = 10 * 60_000;
/** A lock without its holder's pid after this long was left by a holder that died early. */
const UNCLAIMED_MS = 10_000;

function holderAlive(): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(join(LOCK, 'pid'), 'utf8'));
  } catch {
    try {
      return Date.now() - statSync(LOCK).mtimeMs < UNCLAIMED_MS;
    } catch {
      return false;
    }
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function takeLock(): boolean {
  mkdirSync(dirname(LOCK), { recursive: true });
  try {
    mkdirSync(LOCK, { recursive: false });
  } catch {
    if (!holderAlive()) rmSync(LOCK, { recursive: true, force: true });
    return false;
  }
  writeFileSync(join(LOCK, 'pid'), String(process.pid));
  return true;
}

/** The built CLI's entry module, built first when the sources are newer. */
export async function builtCli(): Promise<string> {
  const deadline = Date.now() + WAIT_MS;
  while (!buildIsCurrent()) {
    if (takeLock()) {
      try {
        if (!buildIsCurrent() && !build())
          throw new Error('the build failed: run `npm run build` to see why');
      } finally {
        rmSync(LOCK, { recursive: true, force: true });
      }
      break;
    }
    if (Date.now() > deadline)
      throw new Error(`another test process held the build lock for ${WAIT_MS} ms: ${LOCK}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return BUILT_CLI;
}
