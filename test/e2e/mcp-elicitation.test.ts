/**
 * MCP elicitation on the real binary (ADR-0040), with a real stdio MCP server built on the MCP
 * SDK (test/support/stand-ins/mcp-elicit-server.cjs) configured into codex: codex's approval of
 * the tool call, the server's form as a question set, an unmappable form declined, a URL withheld
 * or shown, and a pending form cancelled when the run is interrupted.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CodexProviderOptions } from '../../src/index.js';
import { mcpToolCallStep, scriptedUsage, textStep } from '../../src/testing/index.js';
import { REPO_ROOT } from '../support/paths.js';
import { textInput, type RecordingSink } from '../support/provider-harness.js';
import {
  openRealCodex,
  recordingSink,
  waitForEvent,
  type RealCodex,
} from '../support/real-codex.js';
import { ADA_FORM_ANSWERS } from '../support/elicitation-frames.js';

const SERVER = join(REPO_ROOT, 'test/support/stand-ins/mcp-elicit-server.cjs');

interface LogEntry {
  readonly listed?: true;
  readonly called?: string;
  readonly tool?: string;
  readonly result?: { action: string; content?: unknown };
}

function readLog(path: string): LogEntry[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as LogEntry);
}

async function until<T>(probe: () => T | undefined, label: string, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${label}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

interface Elicit {
  readonly codex: RealCodex;
  readonly log: () => LogEntry[];
}

/** A session whose codex runs the elicit server, once codex has listed its tools. */
async function openWithServer(options: CodexProviderOptions = {}): Promise<Elicit> {
  const dir = mkdtempSync(join(tmpdir(), 'relvo-mcp-'));
  dirs.push(dir);
  const path = join(dir, 'log.jsonl');
  const codex = await openRealCodex(
    { mcpElicitations: 'bridge', ...options },
    {
      extra: [
        'mcp_servers.elicit.command="node"',
        `mcp_servers.elicit.args=${JSON.stringify([SERVER, path])}`,
      ],
    },
  );
  const log = () => readLog(path);
  // codex reports the server ready once it has its tools; a turn before that is unmeasured
  await until(() => log().find((e) => e.listed === true), 'the MCP server to be listed');
  return { codex, log };
}

type Requested = Extract<
  RecordingSink['events'][number]['payload'],
  { type: 'interaction.requested' }
>;

async function nth(sink: RecordingSink, n: number, label: string): Promise<Requested> {
  await waitForEvent(sink, () => sink.ofType('interaction.requested').length >= n, label);
  const found = sink.ofType('interaction.requested')[n - 1];
  if (found === undefined) throw new Error('unreachable');
  return found;
}

/** One turn calling `tool` of the elicit server; resolves with the run and its sink. */
async function callTool({ codex }: Elicit, tool: string) {
  codex.server.enqueue(
    mcpToolCallStep('elicit', tool, {}, { callId: `call_${tool}` }),
    textStep('done', { usage: scriptedUsage(5, 1, 0, 0) }),
  );
  const sink = recordingSink();
  const run = await codex.session.startRun({ input: textInput('go'), sink, runRef: tool });
  return { run, sink };
}

const approveOnce = { kind: 'approval', decision: 'approved', mode: 'once' } as const;

/** codex's approval of the call comes first; approve it once. */
async function approveCall(elicit: Elicit, sink: RecordingSink) {
  const call = await nth(sink, 1, 'the tool-call approval');
  await elicit.codex.session.respondToInteraction(call.providerRef, approveOnce);
  return call;
}

function resultOf(elicit: Elicit, tool: string) {
  return until(() => elicit.log().find((e) => e.tool === tool)?.result, `${tool}'s result`);
}

describe('MCP elicitation, against the real binary and a real MCP server', () => {
  it("codex's tool-call approval: a tool approval; approved, the tool runs", async () => {
    const elicit = await openWithServer();
    const { run, sink } = await callTool(elicit, 'plain');
    const call = await approveCall(elicit, sink);
    expect(call.request).toMatchObject({
      kind: 'approval',
      subject: { category: 'tool', detail: { server: 'elicit', tool: 'plain' } },
      allowedModes: ['once', 'session'],
    });
    expect(await run.completion).toEqual({ outcome: 'succeeded' });
    expect(elicit.log().some((e) => e.called === 'plain')).toBe(true);
  });

  it('the tool-call approval denied: the tool never runs, the turn carries on', async () => {
    const elicit = await openWithServer();
    const { run, sink } = await callTool(elicit, 'plain');
    const call = await nth(sink, 1, 'the tool-call approval');
    await elicit.codex.session.respondToInteraction(call.providerRef, {
      kind: 'approval',
      decision: 'denied',
    });
    expect(await run.completion).toEqual({ outcome: 'succeeded' });
    expect(elicit.log().some((e) => e.called === 'plain')).toBe(false);
  });

  it("the server's form: a question set; the answers reach the server typed", async () => {
    const elicit = await openWithServer();
    const { run, sink } = await callTool(elicit, 'ask_form');
    await approveCall(elicit, sink);
    const form = await nth(sink, 2, 'the form');
    if (form.request.kind !== 'question_set') throw new Error('not a question set');
    expect(form.request.questions.map((q) => q.header)).toEqual(['Age', 'Agree', 'Colour', 'Name']);
    await elicit.codex.session.respondToInteraction(form.providerRef, ADA_FORM_ANSWERS);
    expect(await resultOf(elicit, 'ask_form')).toEqual({
      action: 'accept',
      content: { age: 36, agree: true, name: 'Ada' },
    });
    expect(await run.completion).toEqual({ outcome: 'succeeded' });
  });

  it('a form beyond what a question set can carry is declined, typed, and never raised', async () => {
    const elicit = await openWithServer();
    const { run, sink } = await callTool(elicit, 'ask_many');
    await approveCall(elicit, sink);
    expect(await resultOf(elicit, 'ask_many')).toEqual({ action: 'decline' });
    expect(await run.completion).toEqual({ outcome: 'succeeded' });
    expect(sink.ofType('interaction.requested')).toHaveLength(1);
    expect(JSON.stringify(elicit.codex.sessionSink.events)).toContain('neutral_bounds');
  });

  it('a URL is withheld by default; approved, the server hears accept', async () => {
    const elicit = await openWithServer();
    expect(elicit.codex.provider.describe().extensions['elicitationUrls']).toBe('withhold');
    const { run, sink } = await callTool(elicit, 'ask_url');
    await approveCall(elicit, sink);
    const url = await nth(sink, 2, 'the URL approval');
    expect(url.request).toMatchObject({ subject: { detail: { urlWithheld: true } } });
    // withheld: neither the address nor the scheme-less one in the message
    expect(JSON.stringify(url.request)).not.toContain('example.invalid');
    await elicit.codex.session.respondToInteraction(url.providerRef, approveOnce);
    expect(await resultOf(elicit, 'ask_url')).toEqual({ action: 'accept', content: {} });
    expect(await run.completion).toEqual({ outcome: 'succeeded' });
  });

  it('a URL is shown when the host opted in', async () => {
    const elicit = await openWithServer({ elicitationUrls: 'show' });
    const { run, sink } = await callTool(elicit, 'ask_url');
    await approveCall(elicit, sink);
    const url = await nth(sink, 2, 'the URL approval');
    const shown = 'https://[redacted]@example.invalid/consent?token=[redacted]&step=2';
    expect(url.request).toMatchObject({
      subject: {
        summary: `The MCP server "elicit" asks you to open a web page: ${shown}`,
        detail: { url: shown, message: 'Open this page to continue, or <url>' },
      },
    });
    // nothing the run or the session emitted (what a host stores) holds a credential
    const emitted = JSON.stringify([sink.events, elicit.codex.sessionSink.events]);
    for (const secret of ['PASSWORD', 'TOKEN1', 'CODE2']) expect(emitted).not.toContain(secret);
    await elicit.codex.session.respondToInteraction(url.providerRef, {
      kind: 'approval',
      decision: 'denied',
    });
    expect(await resultOf(elicit, 'ask_url')).toEqual({ action: 'decline' });
    expect(await run.completion).toEqual({ outcome: 'succeeded' });
  });

  it('an interrupt withdraws a pending form and codex cancels it, once', async () => {
    const elicit = await openWithServer();
    const { run, sink } = await callTool(elicit, 'ask_form');
    await approveCall(elicit, sink);
    const form = await nth(sink, 2, 'the form');
    await run.interrupt();
    expect((await run.completion).outcome).toBe('interrupted');
    expect(sink.ofType('interaction.withdrawn').map((e) => e.providerRef)).toEqual([
      form.providerRef,
    ]);
    expect(await resultOf(elicit, 'ask_form')).toEqual({ action: 'cancel' });
  });
});
