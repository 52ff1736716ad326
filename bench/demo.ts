/**
 * `npm run demo` as a person starts it, on a pseudo-terminal (`script` from util-linux): the time
 * from the command to its first line of its own on screen (npm's `>` banner does not count), and
 * to its end; beside the floor any Node program has, `node -e` printing one line on the same
 * pseudo-terminal, interleaved in one run. One unmeasured warm-up builds the CLI if it is stale.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { median, quantile } from './support/stats.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ESCAPES = new RegExp(`${String.fromCharCode(27)}\\[[0-9;?]*[A-Za-z]`, 'g');
const TRIAL_LIMIT_MS = 60_000;

export interface DemoTrial {
  readonly firstLineMs: number;
  readonly totalMs: number;
}

/** Runs `command` on a pseudo-terminal; times its first non-banner line and its exit. */
function onTerminal(command: string): Promise<DemoTrial & { readonly firstLine: string }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn('script', ['-qec', command, '/dev/null'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let text = '';
    let firstLineMs = 0;
    let firstLine = '';
    const limit = setTimeout(() => {
      child.kill('SIGKILL');
    }, TRIAL_LIMIT_MS);
    child.stdout.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      if (firstLineMs !== 0) return;
      const line = text
        .replace(ESCAPES, '')
        .split(/\r?\n/)
        .map((l) => l.trim())
        .find((l) => l !== '' && !l.startsWith('>'));
      if (line !== undefined) {
        firstLineMs = performance.now() - t0;
        firstLine = line;
      }
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(limit);
      const totalMs = performance.now() - t0;
      if (code !== 0 || firstLineMs === 0) {
        reject(
          new Error(`bench: \`${command}\` exited ${String(code)} (first line: ${firstLine})`),
        );
        return;
      }
      resolve({ firstLineMs, totalMs, firstLine });
    });
  });
}

export interface DemoResult {
  readonly trials: number;
  readonly npmDemo: readonly DemoTrial[];
  readonly directDemo: readonly DemoTrial[];
  readonly nodeFloor: readonly DemoTrial[];
  readonly firstLine: string;
}

export async function demoStart(trials = 10): Promise<DemoResult> {
  const npmDemo: DemoTrial[] = [];
  const directDemo: DemoTrial[] = [];
  const nodeFloor: DemoTrial[] = [];
  // warm-up: builds once when the build is stale, and warms the file cache
  const warm = await onTerminal('npm run demo -- --yes');
  for (let i = 0; i < trials; i++) {
    nodeFloor.push(await onTerminal(`node -e "console.log('ready')"`));
    npmDemo.push(await onTerminal('npm run demo -- --yes'));
    directDemo.push(await onTerminal('node scripts/demo.mjs --yes'));
  }
  return { trials, npmDemo, directDemo, nodeFloor, firstLine: warm.firstLine };
}

export function demoRows(r: DemoResult): Record<string, string>[] {
  const row = (name: string, xs: readonly DemoTrial[]): Record<string, string> => {
    const first = xs.map((x) => x.firstLineMs);
    return {
      command: name,
      'first line, median ms': median(first).toFixed(0),
      'p25…p75 ms': `${quantile(first, 0.25).toFixed(0)} … ${quantile(first, 0.75).toFixed(0)}`,
      'minus the Node floor ms': (
        median(first) - median(r.nodeFloor.map((x) => x.firstLineMs))
      ).toFixed(0),
      'to exit, median ms': median(xs.map((x) => x.totalMs)).toFixed(0),
    };
  };
  return [
    row(`node -e "console.log('ready')" (the floor)`, r.nodeFloor),
    row('npm run demo -- --yes', r.npmDemo),
    row('node scripts/demo.mjs --yes (without npm)', r.directDemo),
  ];
}
