/**
 * A deliberately small JSONL driver for `codex app-server` over stdio that records every
 * frame in both directions with its time since spawn. Evidence tooling only: the adapter's
 * own transport lives in src/transport.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { performance } from 'node:perf_hooks';

export type Frame = Record<string, unknown>;

export interface DriverFrame {
  readonly seq: number;
  /** ms since spawn (fractional; rounded when written). */
  readonly t: number;
  readonly dir: 'c2s' | 's2c';
  readonly frame: Frame;
}

export interface DriverOptions {
  readonly binary: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: Record<string, string>;
}

export interface ExitInfo {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** ms since spawn. */
  readonly t: number;
}

const isObject = (v: unknown): v is Frame =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

export class AppServerDriver {
  readonly frames: DriverFrame[] = [];
  /** Non-JSON stdout lines (counted, never recorded). */
  malformedLines = 0;
  stderr = '';
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly start = performance.now();
  private readonly listeners = new Set<(f: DriverFrame) => void>();
  private nextId = 1;
  private buffer = '';
  private exitInfo: ExitInfo | undefined;
  private readonly exited: Promise<ExitInfo>;

  constructor(options: DriverOptions) {
    this.child = spawn(options.binary, [...options.args], {
      cwd: options.cwd,
      env: options.env,
      stdio: ['pipe', 'pipe', 'pipe'],
      // Own process group: teardown can kill codex and its short-lived helpers together.
      detached: true,
    });
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (chunk: string) => {
      this.onStdout(chunk);
    });
    this.child.stderr.setEncoding('utf8');
    this.child.stderr.on('data', (chunk: string) => {
      // Bounded: stderr is only for a failure message, never evidence.
      if (this.stderr.length < 16_384) this.stderr += chunk;
    });
    this.child.stdin.on('error', () => {
      // EPIPE after exit is expected during teardown.
    });
    this.exited = new Promise((resolve) => {
      this.child.on('exit', (code, signal) => {
        this.exitInfo = { code, signal, t: this.now() };
        resolve(this.exitInfo);
      });
      this.child.on('error', () => {
        this.exitInfo ??= { code: null, signal: null, t: this.now() };
        resolve(this.exitInfo);
      });
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  now(): number {
    return performance.now() - this.start;
  }

  private onStdout(chunk: string): void {
    this.buffer += chunk;
    let nl = this.buffer.indexOf('\n');
    while (nl >= 0) {
      const line = this.buffer.slice(0, nl);
      this.buffer = this.buffer.slice(nl + 1);
      nl = this.buffer.indexOf('\n');
      if (line.trim().length === 0) continue;
      let parsed: unknown;
      try {
        parsed = JSON.parse(line);
      } catch {
        this.malformedLines++;
        continue;
      }
      if (!isObject(parsed)) {
        this.malformedLines++;
        continue;
      }
      this.record('s2c', parsed);
    }
  }

  private record(dir: 'c2s' | 's2c', frame: Frame): DriverFrame {
    const entry: DriverFrame = { seq: this.frames.length, t: this.now(), dir, frame };
    this.frames.push(entry);
    for (const listener of [...this.listeners]) listener(entry);
    return entry;
  }

  /** Write one frame (and record it). */
  send(frame: Frame): void {
    this.record('c2s', frame);
    this.child.stdin.write(JSON.stringify(frame) + '\n');
  }

  /** Write raw bytes that are not a frame (e.g. a malformed line); not recorded. */
  sendRaw(line: string): void {
    this.child.stdin.write(line);
  }

  /** Send a request with the next client id; resolves with its response frame. */
  async request(method: string, params: unknown, timeoutMs = 15_000): Promise<Frame> {
    const id = this.nextId++;
    const from = this.frames.length;
    this.send({ id, method, params });
    const reply = await this.waitFor(
      (f) => f.dir === 's2c' && f.frame.id === id && !('method' in f.frame),
      { timeoutMs, label: `reply to ${method} (id ${id})`, from },
    );
    return reply.frame;
  }

  notify(method: string, params?: unknown): void {
    this.send(params === undefined ? { method } : { method, params });
  }

  /** Resolve with the first frame at index ≥ `from` matching `predicate`; bounded. */
  waitFor(
    predicate: (f: DriverFrame) => boolean,
    options: { readonly timeoutMs?: number; readonly label: string; readonly from?: number },
  ): Promise<DriverFrame> {
    const existing = this.frames.slice(options.from ?? 0).find(predicate);
    if (existing !== undefined) return Promise.resolve(existing);
    const timeoutMs = options.timeoutMs ?? 15_000;
    return new Promise((resolve, reject) => {
      const listener = (f: DriverFrame): void => {
        if (!predicate(f)) return;
        cleanup();
        resolve(f);
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(
          new Error(
            `app-server: timed out after ${timeoutMs} ms waiting for ${options.label}` +
              ` (${this.frames.length} frames, exited: ${this.exitInfo === undefined ? 'no' : 'yes'})`,
          ),
        );
      }, timeoutMs);
      const cleanup = (): void => {
        clearTimeout(timer);
        this.listeners.delete(listener);
      };
      this.listeners.add(listener);
    });
  }

  /** Call `handler` for every later frame (until the returned function is called). */
  onFrame(handler: (f: DriverFrame) => void): () => void {
    this.listeners.add(handler);
    return () => this.listeners.delete(handler);
  }

  /** Close stdin (the graceful path), then SIGKILL the process group after `timeoutMs`. */
  async close(timeoutMs = 3_000): Promise<ExitInfo> {
    if (this.exitInfo !== undefined) return this.exitInfo;
    this.child.stdin.end();
    let timer: NodeJS.Timeout | undefined;
    const killed = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        this.killGroup();
        resolve();
      }, timeoutMs);
    });
    await Promise.race([this.exited, killed]);
    clearTimeout(timer);
    const info = await this.exited;
    // Helpers (shell snapshot, lsb_release) share the group; make sure none outlives us.
    this.killGroup();
    return info;
  }

  private killGroup(): void {
    const pid = this.child.pid;
    if (pid === undefined) return;
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // group already gone
    }
    if (this.exitInfo === undefined) this.child.kill('SIGKILL');
  }

  exitPromise(): Promise<ExitInfo> {
    return this.exited;
  }
}
