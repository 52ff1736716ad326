/**
 * `relvo-codex demo` end to end: the real pinned codex, the scripted model, the runtime with
 * a SQLite log, run as a separate process exactly as `npm run demo` runs it. Every run must
 * leave no process behind (codex, its app-server group, the approved command).
 */
import { existsSync, rmSync } from 'node:fs';
import { eventEnvelopeSchema, type EventEnvelope } from '@relvo-labs/agent-runtime';
import { afterEach, describe, expect, it } from 'vitest';
import { npmRun, runCli, survivorsAfter } from './support/cli.js';

const kept: string[] = [];
afterEach(() => {
  for (const dir of kept.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('relvo-codex demo (real codex, scripted model)', () => {
  it('--yes: the approved command ran in the workspace, the closing reply, usage and timings; exit 0; nothing left', async () => {
    const result = await runCli(['demo', '--yes']);
    expect(result.stderr).toContain('codex asks: Codex requests approval to run');
    expect(result.stderr).toContain('approved (once)');
    expect(result.stderr).toContain('the command ran: relvo-demo.txt now holds "hello from codex"');
    expect(result.stdout).toContain('Done: the command ran');
    expect(result.stderr).toMatch(/turn\s+succeeded/);
    expect(result.stderr).toMatch(/tokens\s+2500 in, 92 out, 2592 total/);
    expect(result.stderr).toMatch(
      /spawn→ready \d+ ms · turn start→first text \d+ ms · total \d+ ms/,
    );
    expect(result.code).toBe(0);
    expect(await survivorsAfter(result.mark)).toEqual([]);
  });

  it('--no: the command is declined and does not run; the turn still completes; exit 0', async () => {
    const result = await runCli(['demo', '--no']);
    expect(result.stderr).toContain('denied');
    expect(result.stderr).toContain('the command did not run');
    expect(result.stdout).toContain('I did not run the command');
    expect(result.stderr).toMatch(/turn\s+succeeded/);
    expect(result.code).toBe(0);
    expect(await survivorsAfter(result.mark)).toEqual([]);
  });

  it('--json --yes: only envelopes on stdout, valid by the runtime schema, one session, gapless from 1', async () => {
    const result = await runCli(['demo', '--json', '--yes']);
    expect(result.code).toBe(0);
    const lines = result.stdout.split('\n').filter((l) => l !== '');
    const envelopes: EventEnvelope[] = lines.map((line) =>
      eventEnvelopeSchema.parse(JSON.parse(line)),
    );
    expect(new Set(envelopes.map((e) => e.sessionId)).size).toBe(1);
    expect(envelopes.map((e) => e.sequence)).toEqual(envelopes.map((_, i) => i + 1));
    const types = envelopes.map((e) => e.payload.type);
    for (const t of [
      'session.opened',
      'run.started',
      'run.message_delta',
      'interaction.requested',
      'interaction.settled',
      'run.usage',
      'run.finished',
      'session.closed',
    ] as const) {
      expect(types).toContain(t);
    }
    expect(types.indexOf('interaction.requested')).toBeLessThan(
      types.indexOf('interaction.settled'),
    );
    expect(types.indexOf('interaction.settled')).toBeLessThan(types.indexOf('run.finished'));
    const settled = envelopes.find((e) => e.payload.type === 'interaction.settled');
    expect(settled?.payload).toMatchObject({
      settlement: {
        outcome: 'responded',
        response: { kind: 'approval', decision: 'approved', mode: 'once' },
      },
    });
    const finished = envelopes.find((e) => e.payload.type === 'run.finished');
    expect(finished?.payload).toMatchObject({ termination: { outcome: 'succeeded' } });
    const text = envelopes
      .flatMap((e) => (e.payload.type === 'run.message_delta' ? [e.payload.text] : []))
      .join('');
    expect(text).toContain('Done: the command ran');
    // the provider options (the environment handed to codex) are never written to the log
    expect(result.stdout).not.toContain('CODEX_HOME');
    expect(await survivorsAfter(result.mark)).toEqual([]);
  });

  it("through npm exactly as the README says: `npm run demo -- --json --yes` (after npm's own banner, only envelopes) and `--no`", async () => {
    // two demos of their own (workspace, log, model), at once
    const [json, silent] = await Promise.all([
      npmRun(['demo', '--', '--json', '--yes']),
      npmRun(['--silent', 'demo', '--', '--json', '--no']),
    ]);
    expect(json.code).toBe(0);
    // npm prints "> <package> demo" and "> <command>" before the script's own output
    const lines = json.stdout.split('\n').filter((l) => l !== '' && !l.startsWith('> '));
    const envelopes = lines.map((l) => eventEnvelopeSchema.parse(JSON.parse(l)));
    expect(envelopes.map((e) => e.sequence)).toEqual(envelopes.map((_, i) => i + 1));
    expect(envelopes.at(-1)?.payload.type).toBe('session.closed');
    expect(await survivorsAfter(json.mark)).toEqual([]);

    expect(silent.code).toBe(0);
    const all = silent.stdout.split('\n').filter((l) => l !== '');
    const parsed = all.map((l) => eventEnvelopeSchema.parse(JSON.parse(l)));
    expect(parsed.find((e) => e.payload.type === 'interaction.settled')?.payload).toMatchObject({
      settlement: { outcome: 'responded', response: { decision: 'denied' } },
    });
    expect(await survivorsAfter(silent.mark)).toEqual([]);
  });

  it('no terminal and no flag: denies and says so, never approves on its own', async () => {
    const result = await runCli(['demo']);
    expect(result.stderr).toContain('neither --yes nor --no');
    expect(result.stderr).toContain('denied (no terminal to ask in');
    expect(result.stderr).toContain('the command did not run');
    expect(result.code).toBe(0);
    expect(await survivorsAfter(result.mark)).toEqual([]);
  });

  it('--keep keeps the workspace and the SQLite event log and prints where they are', async () => {
    const result = await runCli(['demo', '--yes', '--keep']);
    expect(result.code).toBe(0);
    const workspace = /kept: workspace (\S+)/.exec(result.stderr)?.[1];
    const log = /kept: event log (\S+)/.exec(result.stderr)?.[1];
    expect(workspace).toBeDefined();
    expect(log).toBeDefined();
    kept.push(workspace!.replace(/\/workspace$/, ''));
    expect(existsSync(`${workspace!}/relvo-demo.txt`)).toBe(true);
    expect(existsSync(log!)).toBe(true);
    expect(await survivorsAfter(result.mark)).toEqual([]);
  });
});
