/** SIGTERM while codex never answers `initialize`: the CLI ends within seconds, nothing left. */
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CODEX_APP_SERVER_VERSION } from '@relvo-labs/agent-provider-codex';
import { startCli, survivorsAfter, until } from './support/cli.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/**
 * Answers `--version` like codex; as an app-server it says it started, then never answers and,
 * like a wedged process, ignores stdin EOF and SIGTERM (only SIGKILL ends it).
 */
function silentCodex(dir: string): { path: string; started: string } {
  const path = join(dir, 'codex');
  const started = join(dir, 'app-server-started');
  writeFileSync(
    path,
    [
      '#!/bin/sh',
      `if [ "$1" = "--version" ]; then echo "codex-cli ${CODEX_APP_SERVER_VERSION}"; exit 0; fi`,
      `: > '${started}'`,
      "trap '' TERM HUP INT",
      'while :; do /bin/sleep 1; done',
      '',
    ].join('\n'),
  );
  chmodSync(path, 0o755);
  return { path, started };
}

describe('relvo-codex run and a codex that never answers', () => {
  it('SIGTERM while initialize is unanswered exits 143 within seconds and leaves nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'relvo-cli-silent-'));
    dirs.push(dir);
    const codex = silentCodex(dir);
    const cli = startCli(
      ['run', 'hi', '--codex', codex.path, '--cwd', dir, '--event-log', join(dir, 'events.sqlite')],
      { timeoutMs: 60_000 },
    );
    await until(() => existsSync(codex.started), 'the stand-in app-server to start', 30_000);
    const signalledAt = Date.now();
    process.kill(cli.pid, 'SIGTERM');
    const result = await cli.result;
    const tookMs = Date.now() - signalledAt;
    expect(result.code).toBe(143);
    // the runtime's close grace (10 s) bounds it; the 120 s initialize timeout does not
    expect(tookMs).toBeLessThan(20_000);
    expect(await survivorsAfter(result.mark)).toEqual([]);
  }, 90_000);
});
