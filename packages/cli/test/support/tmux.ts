/**
 * A terminal a test can type into: a tmux server on a private socket, one pane running the
 * command, `send-keys` to type and `capture-pane` to read the screen. The pane stays after the
 * command exits so its exit status can be read. `close()` kills the server and everything in it.
 */
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function tmux(socket: string, args: readonly string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('tmux', ['-S', socket, ...args], { env, timeout: 10_000 }, (error, stdout, stderr) => {
      if (error !== null)
        reject(new Error(`tmux ${args[0] ?? ''} failed: ${stderr || error.message}`));
      else resolve(stdout);
    });
  });
}

export function tmuxAvailable(): boolean {
  return spawnSync('tmux', ['-V'], { stdio: 'ignore' }).status === 0;
}

/**
 * The exit status of a zombie process, as a shell reports it (128 + signal when killed), from
 * the wait status in field 52 of /proc/<pid>/stat; undefined while it is not a zombie.
 */
function zombieExitStatus(pid: string | undefined): number | undefined {
  if (pid === undefined || !/^\d+$/.test(pid)) return undefined;
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
  } catch {
    return undefined;
  }
  // fields after the command name, which is in parentheses: state is field 3, exit_code 52
  const fields = stat
    .slice(stat.lastIndexOf(')') + 2)
    .trim()
    .split(/\s+/);
  const wait = Number(fields[52 - 3]);
  if (fields[0] !== 'Z' || !Number.isInteger(wait)) return undefined;
  return (wait & 0x7f) === 0 ? (wait >> 8) & 0xff : 128 + (wait & 0x7f);
}

const shellQuote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

export interface Terminal {
  /** The visible screen plus scrollback, as plain text. */
  screen(): Promise<string>;
  /** tmux key names or literal text, e.g. `sendKeys('y', 'Enter')`, `sendKeys('C-c')`. */
  sendKeys(...keys: string[]): Promise<void>;
  /** Polls the screen until `predicate` holds; fails with the last screen after `timeoutMs`. */
  waitFor(
    predicate: (screen: string) => boolean,
    label: string,
    timeoutMs?: number,
  ): Promise<string>;
  /** The command's exit status once it has exited (polls, bounded). */
  exitStatus(timeoutMs?: number): Promise<number>;
  close(): Promise<void>;
}

export async function openTerminal(
  argv: readonly string[],
  env: Record<string, string>,
  options: { readonly cwd?: string; readonly width?: number; readonly height?: number } = {},
): Promise<Terminal> {
  const dir = mkdtempSync(join(tmpdir(), 'relvo-tmux-'));
  const socket = join(dir, 'sock');
  const command = argv.map(shellQuote).join(' ');
  // a person's terminal, not a CI log: CI=true (set when the suite runs in CI) would make the
  // CLI, rightly, draw no spinner or status line
  env = Object.fromEntries(Object.entries(env).filter(([name]) => name !== 'CI'));
  // -f /dev/null: no user tmux.conf; the server and the pane inherit `env` (with the leak marks)
  await tmux(
    socket,
    [
      '-f',
      '/dev/null',
      'new-session',
      '-d',
      '-s',
      'cli',
      '-x',
      String(options.width ?? 160),
      '-y',
      String(options.height ?? 50),
      ...(options.cwd ? ['-c', options.cwd] : []),
      command,
    ],
    env,
  );
  await tmux(socket, ['set-option', '-t', 'cli', 'remain-on-exit', 'on'], env);
  await tmux(socket, ['set-option', '-t', 'cli', 'history-limit', '5000'], env);

  const screen = (): Promise<string> =>
    tmux(socket, ['capture-pane', '-p', '-J', '-S', '-', '-t', 'cli'], env);

  const poll = async <T>(
    probe: () => Promise<T | undefined>,
    describe: () => Promise<string>,
    timeoutMs: number,
  ): Promise<T> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await probe();
      if (value !== undefined) return value;
      if (Date.now() > deadline) throw new Error(await describe());
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  return {
    screen,
    async sendKeys(...keys) {
      await tmux(socket, ['send-keys', '-t', 'cli', ...keys], env);
    },
    waitFor(predicate, label, timeoutMs = 30_000) {
      return poll(
        async () => {
          const text = await screen();
          return predicate(text) ? text : undefined;
        },
        async () =>
          `timed out after ${timeoutMs} ms waiting for ${label}; screen:\n${await screen()}`,
        timeoutMs,
      );
    },
    exitStatus(timeoutMs = 30_000) {
      return poll(
        async () => {
          const out = (
            await tmux(
              socket,
              [
                'display-message',
                '-p',
                '-t',
                'cli',
                '#{pane_dead}:#{pane_dead_status}:#{pane_dead_signal}:#{pane_pid}',
              ],
              env,
            )
          ).trim();
          const [dead, status, signal, pid] = out.split(':');
          // tmux may mark the pane dead (its pty closed) a moment before it has reaped the
          // process: keep polling until the status (or the signal) is known
          if (dead !== '1') return undefined;
          if (status !== undefined && /^\d+$/.test(status)) return Number(status);
          if (signal !== undefined && /^\d+$/.test(signal)) return 128 + Number(signal);
          // tmux 3.3a sometimes never reaps it (measured under load: a zombie for 30 s, the
          // server idle with SIGCHLD handled): the zombie's own wait status is in /proc
          return zombieExitStatus(pid);
        },
        async () => `the command did not exit within ${timeoutMs} ms; screen:\n${await screen()}`,
        timeoutMs,
      );
    },
    async close() {
      try {
        await tmux(socket, ['kill-server'], env);
      } catch {
        // already gone
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
