/**
 * The scripted model as a process of its own (`relvo-codex-scripted-model`, docs/testing.md §4.1),
 * so a test can kill the host under test and keep the model: the model on one 127.0.0.1 port,
 * its control on another. It prints one JSON status line when ready, and stops on SIGTERM,
 * SIGINT, POST /shutdown, when the process that started it dies (it is re-parented), or with
 * `--stdin-lifeline` when its stdin ends (the parent held it and is gone).
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { CONTROL_TIMEOUT_MS, startControlServer } from './model-control-server.js';
import { stepsFileSchema } from './model-control-schemas.js';
import { ScriptedModelServer } from './model-server.js';

/** How often the process checks that its parent is still there. */
const PARENT_POLL_MS = 250;

export interface ScriptedModelProcessIo {
  readonly stdout: (line: string) => void;
  readonly stderr: (line: string) => void;
}

const USAGE =
  'usage: relvo-codex-scripted-model [--port N] [--control-port N] [--steps steps.json] [--control-timeout-ms N] [--stdin-lifeline]';

function portOf(value: string | undefined, name: string): number {
  if (value === undefined) return 0;
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65_535) throw new Error(`${name} takes a port, 0..65535`);
  return port;
}

function timeoutOf(value: string | undefined): number {
  if (value === undefined) return CONTROL_TIMEOUT_MS;
  const ms = Number(value);
  if (!/^\d+$/.test(value) || ms < 10 || ms > 600_000) {
    throw new Error('--control-timeout-ms takes milliseconds, 10..600000');
  }
  return ms;
}

/** `--steps`: a JSON array of steps, each checked; one bad step refuses the whole file. */
function stepsFrom(path: string | undefined): ReturnType<typeof stepsFileSchema.parse> {
  if (path === undefined) return [];
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    throw new Error('--steps: no readable JSON file there');
  }
  const parsed = stepsFileSchema.safeParse(json);
  if (!parsed.success) throw new Error('--steps: not a JSON array of scripted steps');
  return parsed.data;
}

/**
 * Runs until told to stop; resolves with the exit code (0 after a stop, 2 for bad arguments).
 * `io` defaults to the process's own streams.
 */
export async function runScriptedModelProcess(
  argv: readonly string[],
  io: ScriptedModelProcessIo = {
    stdout: (line) => process.stdout.write(`${line}\n`),
    stderr: (line) => process.stderr.write(`${line}\n`),
  },
): Promise<number> {
  let options: {
    port: number;
    controlPort: number;
    steps: ReturnType<typeof stepsFrom>;
    controlTimeoutMs: number;
    stdinLifeline: boolean;
  };
  try {
    const { values } = parseArgs({
      args: [...argv],
      options: {
        port: { type: 'string' },
        'control-port': { type: 'string' },
        steps: { type: 'string' },
        'control-timeout-ms': { type: 'string' },
        'stdin-lifeline': { type: 'boolean' },
      },
      strict: true,
      allowPositionals: false,
    });
    options = {
      port: portOf(values.port, '--port'),
      controlPort: portOf(values['control-port'], '--control-port'),
      steps: stepsFrom(values.steps),
      controlTimeoutMs: timeoutOf(values['control-timeout-ms']),
      stdinLifeline: values['stdin-lifeline'] === true,
    };
  } catch (error) {
    io.stderr(`${error instanceof Error ? error.message : 'bad arguments'}\n${USAGE}`);
    return 2;
  }
  const model = await ScriptedModelServer.start({ port: options.port });
  model.enqueue(...options.steps);
  const control = await startControlServer(model, options.controlPort, options.controlTimeoutMs);

  const parent = process.ppid;
  let poll: NodeJS.Timeout | undefined;
  const signals: NodeJS.Signals[] = ['SIGTERM', 'SIGINT'];
  let onSignal = (): void => undefined;
  const stopped = new Promise<void>((resolve) => {
    onSignal = resolve;
    for (const signal of signals) process.once(signal, onSignal);
    // a parent that died without a word: the process re-parents, and stops here
    poll = setInterval(() => {
      if (process.ppid !== parent) resolve();
    }, PARENT_POLL_MS);
    void control.shutdownRequested.then(resolve);
    // --stdin-lifeline: the parent holds our stdin; its end (the parent gone) stops us at once
    if (options.stdinLifeline) {
      process.stdin.once('end', resolve).once('close', resolve).resume();
    }
  });
  io.stdout(
    JSON.stringify({
      baseUrl: model.baseUrl,
      controlUrl: control.url,
      pid: process.pid,
      pending: model.pending,
      requests: 0,
    }),
  );
  await stopped;
  clearInterval(poll);
  if (options.stdinLifeline) process.stdin.destroy();
  for (const signal of signals) process.off(signal, onSignal);
  await Promise.all([control.close(), model.close()]);
  return 0;
}
