/**
 * A log edited by someone who can write it but cannot read its key (ADR-0050), on the real codex.
 * A `run` is killed mid-turn on a SQLite log; the log is then rewritten so that the session's
 * workspace is another folder and the codex record's workspace digest matches that folder (the
 * digest is public: a SHA-256 of the path). `run --resume` refuses before codex starts: the model
 * is asked nothing and no codex process is left; the other folder stays empty. The key file the
 * log got beside it is the owner's alone (0600).
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, realpathSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { textStep } from '@relvo-labs/agent-provider-codex/testing';
import { cliEnv, runCli, startCli, survivorsAfter, until } from './support/cli.js';
import { scriptedRunSetup } from './support/scripted-config.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** The digest codex records for a workspace: public, so anyone can recompute it. */
const unkeyed = (root: string): string =>
  createHash('sha256').update(`relvo-codex:workspace:${root}`).digest('hex');

/** Rewrites every row of the log: `from` becomes `to`, everywhere it appears. */
function rewrite(path: string, from: string, to: string): number {
  const db = new Database(path);
  try {
    const rows = db.prepare('SELECT rowid, envelopes FROM event_rows').all() as {
      rowid: number;
      envelopes: string;
    }[];
    let changed = 0;
    for (const row of rows) {
      if (!row.envelopes.includes(from)) continue;
      const text = row.envelopes.split(from).join(to);
      db.prepare('UPDATE event_rows SET envelopes = ? WHERE rowid = ?').run(text, row.rowid);
      changed += 1;
    }
    return changed;
  } finally {
    db.close();
  }
}

describe('a forged recovery record (real codex, SQLite log)', () => {
  it('the workspace and its digest rewritten together: --resume refuses before codex starts', async () => {
    const { env, mark } = cliEnv();
    const s = await scriptedRunSetup(env);
    cleanups.push(() => s.cleanup());
    const elsewhere = realpathSync(mkdtempSync(join(tmpdir(), 'relvo-elsewhere-')));
    cleanups.push(async () => {
      rmSync(elsewhere, { recursive: true, force: true });
    });
    s.server.enqueue(textStep(['Noted ', 'it.'], { stallAfterDeltas: 1 }));
    const first = startCli(['run', 'remember this', ...s.runArgs, '--json'], {
      env,
      timeoutMs: 90_000,
    });
    await until(() => first.stdout().includes('run.message_delta'), 'the first turn to stream');
    const sessionId = /"sessionId":"(ses_[0-9a-f]+)"/.exec(first.stdout())?.[1] ?? '';
    process.kill(first.pid, 'SIGKILL');
    await first.result;
    expect(await survivorsAfter(mark)).toEqual([]);
    // the log's key lives beside it, readable by its owner alone
    expect(statSync(`${s.eventLog}.key`).mode & 0o777).toBe(0o600);

    const workspace = realpathSync(s.iso.workspace);
    expect(rewrite(s.eventLog, unkeyed(workspace), unkeyed(elsewhere))).toBeGreaterThan(0);
    expect(
      rewrite(s.eventLog, JSON.stringify(workspace), JSON.stringify(elsewhere)),
    ).toBeGreaterThan(0);
    const asked = s.server.requests.length;
    const args = ['--config', s.configFile, '--event-log', s.eventLog];
    const resumed = await runCli(['run', '--resume', sessionId, 'go on', ...args], {
      env,
      timeoutMs: 90_000,
    });
    expect(resumed.code).toBe(1);
    expect(resumed.stderr).toContain(
      `session ${sessionId} cannot be resumed: its saved codex thread does not verify under the log's key`,
    );
    expect(resumed.stderr).not.toContain(elsewhere);
    expect(s.server.requests.length).toBe(asked);
    expect(readdirSync(elsewhere)).toEqual([]);
    expect(await survivorsAfter(resumed.mark)).toEqual([]);
  }, 180_000);
});
