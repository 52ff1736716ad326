/**
 * Starts the scripted model as a child process and hands back its client (docs/testing.md §4.1).
 * Bounded at each step: the ready line, the stop (a polite shutdown, then SIGKILL).
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { statusSchema } from './model-control-schemas.js';
import { connectScriptedModel, type ScriptedModelClient } from './model-client.js';

export interface StartScriptedModelOptions {
  /**
   * The argv that runs the process; default: this Node running the package's
   * `relvo-codex-scripted-model` bin (which needs the built package).
   */
  readonly command?: readonly string[];
  readonly port?: number;
  readonly controlPort?: number;
  /** A JSON file of steps queued before the process answers anything. */
  readonly stepsFile?: string;
  /** The process's bound on a control request arriving whole (`--control-timeout-ms`). */
  readonly controlTimeoutMs?: number;
  /** The process's environment (default: this one's). */
  readonly env?: NodeJS.ProcessEnv;
  /** Bound on the ready line. Default 15 s. */
  readonly startTimeoutMs?: number;
  /** Bound on each control request (`connectScriptedModel`'s). Default 10 s. */
  readonly timeoutMs?: number;
}

export interface ScriptedModelProcess {
  /** Closes the process's stdin, as this process dying would: it stops on its own. */
  closeLifeline(): void;
  /** The client: the same step API as an in-process `ScriptedModelServer`. */
  readonly model: ScriptedModelClient;
  readonly pid: number;
  /** Resolves when the process has exited. */
  readonly exited: Promise<void>;
  /** Shutdown over control, then SIGKILL if it is still there after `graceMs` (default 5 s). */
  stop(graceMs?: number): Promise<void>;
}

/** The package's bin, next to dist/ (resolves from the built module). */
export function scriptedModelBin(): string {
  return fileURLToPath(new URL('../bin/relvo-codex-scripted-model.js', import.meta.url));
}

function bounded<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(new Error(`scripted model process: ${what} not within ${String(ms)} ms`));
    }, ms);
  });
  return Promise.race([promise, timeout]).finally(() => {
    clearTimeout(timer);
  });
}

export async function startScriptedModelProcess(
  options: StartScriptedModelOptions = {},
): Promise<ScriptedModelProcess> {
  const [command = process.execPath, ...pre] = options.command ?? [
    process.execPath,
    scriptedModelBin(),
  ];
  const args = [
    ...pre,
    ...(options.port === undefined ? [] : ['--port', String(options.port)]),
    ...(options.controlPort === undefined ? [] : ['--control-port', String(options.controlPort)]),
    ...(options.stepsFile === undefined ? [] : ['--steps', options.stepsFile]),
    ...(options.controlTimeoutMs === undefined
      ? []
      : ['--control-timeout-ms', String(options.controlTimeoutMs)]),
    // it stops when our end of its stdin closes: this process gone, even by SIGKILL
    '--stdin-lifeline',
  ];
  const child = spawn(command, args, {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: options.env ?? process.env,
  });
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => {
      resolve();
    });
    child.once('error', () => {
      resolve();
    });
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-2000);
  });
  const kill = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  };
  const ready = new Promise<string>((resolve, reject) => {
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const end = text.indexOf('\n');
      if (end >= 0) resolve(text.slice(0, end));
    });
    void exited.then(() => {
      reject(new Error(`scripted model process exited before it was ready: ${stderr}`));
    });
  });
  try {
    const line = await bounded(ready, options.startTimeoutMs ?? 15_000, 'the ready line');
    const status = statusSchema.parse(JSON.parse(line));
    const model = await connectScriptedModel(status.controlUrl, {
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    });
    return {
      model,
      pid: status.pid,
      closeLifeline() {
        child.stdin.end();
      },
      exited,
      async stop(graceMs = 5_000) {
        if (child.exitCode !== null || child.signalCode !== null) return;
        await model.shutdown().catch(() => undefined);
        await bounded(exited, graceMs, 'the exit').catch(kill);
      },
    };
  } catch (error) {
    await kill();
    throw error;
  }
}
