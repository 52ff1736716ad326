/**
 * What a codex says it is (`codex --version` → `codex-cli X.Y.Z`) and whether that release is
 * in the reviewed window the provider exports.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import {
  CODEX_APP_SERVER_VERSION,
  CODEX_SUPPORTED_APP_SERVER_VERSIONS,
} from '@relvo-labs/agent-provider-codex';

export const VERSION_PROBE_TIMEOUT_MS = 15_000;

export type VersionProbe =
  | { readonly ok: true; readonly version: string; readonly ms: number }
  | {
      readonly ok: false;
      readonly reason: 'timeout' | 'spawn_failed' | 'exit_nonzero' | 'unparsable';
    };

/** Parse the first `X.Y.Z` after `codex-cli` (or alone) on the first line that has one. */
export function parseCodexVersion(stdout: string): string | undefined {
  for (const line of stdout.split('\n')) {
    const match = /^(?:codex(?:-cli)?\s+)?v?(\d+\.\d+\.\d+)(?:[-+][0-9A-Za-z.-]+)?\s*$/.exec(
      line.trim(),
    );
    if (match?.[1] !== undefined) return match[1];
  }
  return undefined;
}

/**
 * Runs `<path> --version` in a process group of its own, so a launcher and the binary it starts
 * are both killed if it hangs. Bounded: never waits longer than `timeoutMs`.
 */
export function probeCodexVersion(
  path: string,
  env: NodeJS.ProcessEnv = process.env,
  timeoutMs = VERSION_PROBE_TIMEOUT_MS,
): Promise<VersionProbe> {
  const started = performance.now();
  return new Promise((resolve) => {
    let child: ChildProcess;
    try {
      child = spawn(path, ['--version'], {
        env,
        detached: true,
        stdio: ['ignore', 'pipe', 'ignore'],
      });
    } catch {
      resolve({ ok: false, reason: 'spawn_failed' });
      return;
    }
    let stdout = '';
    let timedOut = false;
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (chunk: string) => {
      if (stdout.length < 64 * 1024) stdout += chunk;
    });
    const killGroup = (): void => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, timeoutMs);
    child.on('error', () => {
      clearTimeout(timer);
      resolve({ ok: false, reason: 'spawn_failed' });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      // a launcher may leave its child in the group for a moment: the group goes with it
      killGroup();
      const ms = Math.round(performance.now() - started);
      if (timedOut) {
        resolve({ ok: false, reason: 'timeout' });
        return;
      }
      if (code !== 0) {
        resolve({ ok: false, reason: 'exit_nonzero' });
        return;
      }
      const version = parseCodexVersion(stdout);
      resolve(
        version === undefined ? { ok: false, reason: 'unparsable' } : { ok: true, version, ms },
      );
    });
  });
}

export const REVIEWED_WINDOW: readonly string[] = CODEX_SUPPORTED_APP_SERVER_VERSIONS;

/** Plain releases only: a platform build suffix or a prerelease is not the reviewed release. */
export function isInWindow(version: string): boolean {
  return REVIEWED_WINDOW.includes(version);
}

/** The one command that puts a reviewed codex on PATH. */
export function installHint(): string {
  return `npm i -g -E @openai/codex@${CODEX_APP_SERVER_VERSION}`;
}

export function windowSummary(): {
  readonly baseline: string;
  readonly min: string;
  readonly max: string;
  readonly supported: readonly string[];
} {
  return {
    baseline: CODEX_APP_SERVER_VERSION,
    // the allowlist is kept in release order (a test holds it so): its ends are the window's
    min: REVIEWED_WINDOW[0] ?? CODEX_APP_SERVER_VERSION,
    max: REVIEWED_WINDOW.at(-1) ?? CODEX_APP_SERVER_VERSION,
    supported: REVIEWED_WINDOW,
  };
}

/** `0.153.4 – 0.171.0 (26 reviewed releases)`: only the releases reviewed in between count. */
export function windowRange(): string {
  const w = windowSummary();
  return `${w.min} – ${w.max} (${w.supported.length} reviewed releases)`;
}

/** Where a release stands against the reviewed window. */
export type WindowPosition = 'inside' | 'newer' | 'older' | 'between';

const numeric = (v: string): number[] => v.split('.').map(Number);
function compareReleases(a: string, b: string): number {
  const [pa, pb] = [numeric(a), numeric(b)];
  for (let i = 0; i < 3; i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

export function windowPosition(version: string): WindowPosition {
  if (isInWindow(version)) return 'inside';
  const { min, max } = windowSummary();
  if (compareReleases(version, max) > 0) return 'newer';
  if (compareReleases(version, min) < 0) return 'older';
  return 'between';
}

/**
 * The problem and the one next step for a release outside the window: a newer one is reviewed
 * (in a clone of the provider repository: the review needs its fixtures and suite), an older one
 * is upgraded, one between reviewed releases is either.
 */
export function outsideWindowAdvice(version: string): {
  readonly problem: string;
  readonly nextStep: string;
} {
  const review = `review it in a clone of the provider repository: \`npm run review -- ${version}\``;
  const install = `\`${installHint()}\``;
  switch (windowPosition(version)) {
    case 'newer':
      return {
        problem: `codex ${version} is newer than the reviewed window (${windowRange()})`,
        nextStep: `${review}; or install the baseline: ${install}`,
      };
    case 'older':
      return {
        problem: `codex ${version} is older than the reviewed window (${windowRange()})`,
        nextStep: `upgrade to the baseline: ${install}`,
      };
    default:
      return {
        problem: `codex ${version} is not a reviewed release, though the window (${windowRange()}) spans it`,
        nextStep: `install the baseline: ${install}; or ${review}`,
      };
  }
}

/** What went wrong when a codex was asked for its version. */
export function describeProbeFailure(
  path: string,
  reason: Extract<VersionProbe, { ok: false }>['reason'],
): string {
  const what = {
    timeout: `did not answer within ${VERSION_PROBE_TIMEOUT_MS / 1000} s`,
    spawn_failed: 'could not be started',
    exit_nonzero: 'exited with an error',
    unparsable: 'printed no codex version (unparsable)',
  }[reason];
  return `\`${path} --version\` failed: it ${what}; is it codex?`;
}
