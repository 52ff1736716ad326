/**
 * The smallest client that does what the adapter does on the wire: spawn the app-server, write
 * JSONL, split stdout on newlines and JSON.parse each line. No validation, no correlation, no
 * process-group ownership: the baseline the adapter's overhead is measured against.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { CODEX_APP_SERVER_ARGV } from '../../src/transport/stdio.js';

type Frame = Record<string, unknown>;
interface Watcher {
  readonly test: (f: Frame) => boolean;
  readonly resolve: (f: Frame) => void;
}

export class RawClient {
  readonly #child: ChildProcessWithoutNullStreams;
  #buffer = '';
  #nextId = 1;
  readonly #pending = new Map<unknown, (frame: Frame) => void>();
  #watchers: Watcher[] = [];
  readonly #exited: Promise<void>;

  constructor(
    executable: string,
    args: readonly string[],
    env: Record<string, string>,
    cwd: string,
  ) {
    this.#child = spawn(executable, [...args, ...CODEX_APP_SERVER_ARGV], {
      cwd,
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
      // its own session, like the adapter's child: with scheduler autogroups (Linux default) a
      // child left in the host's session shares the host's CPU share and loses to a setsid one
      detached: true,
    });
    this.#child.stderr.resume();
    this.#child.stdin.on('error', () => undefined);
    this.#exited = new Promise((resolve) =>
      this.#child.once('exit', () => {
        resolve();
      }),
    );
    this.#child.stdout.setEncoding('utf8');
    this.#child.stdout.on('data', (chunk: string) => {
      this.#buffer += chunk;
      let nl = this.#buffer.indexOf('\n');
      while (nl !== -1) {
        const line = this.#buffer.slice(0, nl);
        this.#buffer = this.#buffer.slice(nl + 1);
        if (line !== '') this.#dispatch(JSON.parse(line) as Frame);
        nl = this.#buffer.indexOf('\n');
      }
    });
  }

  get pid(): number | undefined {
    return this.#child.pid;
  }

  #dispatch(frame: Frame): void {
    if (!('method' in frame) && 'id' in frame) {
      const done = this.#pending.get(frame.id);
      this.#pending.delete(frame.id);
      done?.(frame);
      return;
    }
    const keep: Watcher[] = [];
    for (const w of this.#watchers) {
      if (w.test(frame)) w.resolve(frame);
      else keep.push(w);
    }
    this.#watchers = keep;
  }

  #write(frame: Frame): void {
    this.#child.stdin.write(`${JSON.stringify(frame)}\n`);
  }

  request(method: string, params: unknown): Promise<Frame> {
    const id = this.#nextId++;
    const reply = new Promise<Frame>((resolve) => this.#pending.set(id, resolve));
    this.#write({ id, method, params });
    return reply;
  }

  notify(method: string): void {
    this.#write({ method });
  }

  /** Resolves with the next notification that passes `test` (registered before the write that causes it). */
  next(test: (frame: Frame) => boolean): Promise<Frame> {
    return new Promise((resolve) => this.#watchers.push({ test, resolve }));
  }

  /** The adapter's handshake: initialize, initialized, thread/start; resolves the thread id. */
  async handshake(cwd: string, clientName: string, clientVersion: string): Promise<string> {
    await this.request('initialize', {
      clientInfo: { name: clientName, title: 'Relvo Agent Runtime', version: clientVersion },
      capabilities: null,
    });
    this.notify('initialized');
    const started = await this.request('thread/start', {
      cwd,
      approvalPolicy: 'never',
      sandbox: 'read-only',
      ephemeral: true,
    });
    return ((started.result as Frame).thread as Frame).id as string;
  }

  /** Close stdin and wait for the process to exit. */
  async close(): Promise<void> {
    this.#child.stdin.end();
    await this.#exited;
  }

  kill(): void {
    this.#child.kill('SIGKILL');
  }
}
