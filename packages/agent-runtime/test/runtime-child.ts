/**
 * A runtime in a child process of its own (its script bundled), whose stdout lines are kept and
 * which is killed after the test. Tests that need several runtimes on one store drive them
 * through this.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { scriptArgv } from './script-bundle.js';
import { onCleanup } from './support.js';

export class RuntimeChild {
  readonly lines: string[] = [];
  readonly exited: Promise<void>;
  #stderr = '';
  readonly #process: ChildProcessWithoutNullStreams;

  /**
   * `env` replaces the inherited environment; the suite's leak marker is added either way.
   * `launcher` runs before node and execs it (e.g. `prlimit --fsize=…`).
   */
  constructor(
    script: string,
    args: string[],
    env: NodeJS.ProcessEnv = process.env,
    launcher: readonly string[] = [],
  ) {
    const marker = process.env.RELVO_TEST_RUN_ID;
    const node = [process.execPath, ...scriptArgv(script)];
    const [command = '', ...rest] = [...launcher, ...node, ...args];
    this.#process = spawn(command, rest, {
      env: marker === undefined ? env : { ...env, RELVO_TEST_CHILD_MARKER: marker },
    });
    this.exited = new Promise((resolve) => {
      this.#process.once('exit', () => {
        resolve();
      });
    });
    let partial = '';
    this.#process.stdout.on('data', (chunk: Buffer) => {
      const parts = (partial + chunk.toString()).split('\n');
      partial = parts.pop() ?? '';
      this.lines.push(...parts);
    });
    this.#process.stderr.on('data', (chunk: Buffer) => {
      this.#stderr = (this.#stderr + chunk.toString()).slice(-2000);
    });
    onCleanup(async () => {
      this.signal('SIGCONT');
      this.signal('SIGKILL');
      await this.exited;
    });
  }

  get alive(): boolean {
    return this.#process.exitCode === null && this.#process.signalCode === null;
  }

  signal(name: NodeJS.Signals): void {
    if (this.alive) this.#process.kill(name);
  }

  /** One line on the child's stdin. */
  send(line: string): void {
    this.#process.stdin.write(`${line}\n`);
  }

  /** Bounded: until a line satisfies `test`; fails with the child's stderr. */
  async line(test: (line: string) => boolean, label: string, ms = 60_000): Promise<string> {
    for (const deadline = Date.now() + ms; ;) {
      const found = this.lines.find(test);
      if (found !== undefined) return found;
      if (Date.now() > deadline || (!this.alive && this.lines.find(test) === undefined)) {
        throw new Error(`${label}: not seen (alive: ${String(this.alive)}) ${this.#stderr}`);
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  }
}

/** `value` as JSON on one line: JSON leaves U+2028 and U+2029 raw, and readline ends lines there. */
export function jsonLine(value: string): string {
  return JSON.stringify(value).replace(
    /[\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16)}`,
  );
}
