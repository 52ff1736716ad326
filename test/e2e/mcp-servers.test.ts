/**
 * The `mcpServers` provider option on the real binary with a real MCP server (the MCP SDK): the
 * server is handed to codex as its own thread config; its tool runs when the host approves the
 * call (bridged) or approved it in advance (`tools: 'approve'`); its env reaches the server and
 * never anything the adapter publishes. Bad tables are refused before codex starts, naming paths.
 */
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isProviderRejection } from '@relvo-labs/agent-provider';
import { afterEach, describe, expect, it } from 'vitest';
import { createCodexProvider, type CodexProviderOptions } from '../../src/index.js';
import { mcpToolCallStep, textStep } from '../../src/testing/index.js';
import { REPO_ROOT } from '../support/paths.js';
import { textInput } from '../support/provider-harness.js';
import {
  openRealCodex,
  recordingSink,
  waitForApproval,
  type RealCodex,
} from '../support/real-codex.js';

const SERVER = join(REPO_ROOT, 'test/support/stand-ins/mcp-elicit-server.cjs');
const PROBE = 'mcp-env-CANARY-4711';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

interface Logged {
  readonly listed?: boolean;
  readonly called?: string;
  readonly envProbe?: string | null;
}

function logFile(): { path: string; read: () => Logged[] } {
  const dir = mkdtempSync(join(tmpdir(), 'relvo-mcp-servers-'));
  dirs.push(dir);
  const path = join(dir, 'log.jsonl');
  const read = (): Logged[] =>
    existsSync(path)
      ? readFileSync(path, 'utf8')
          .split('\n')
          .filter((l) => l !== '')
          .map((l) => JSON.parse(l) as Logged)
      : [];
  return { path, read };
}

async function until(probe: () => boolean, label: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${label}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function withServer(tools: 'ask' | 'approve', extra: CodexProviderOptions = {}) {
  const log = logFile();
  const codex = await openRealCodex({
    ...extra,
    mcpServers: [
      {
        name: 'hosted',
        command: 'node',
        args: [SERVER, log.path],
        env: { RELVO_MCP_PROBE: PROBE },
        tools,
      },
    ],
  });
  // codex lists the server's tools once it started it
  await until(() => log.read().some((e) => e.listed === true), 'the MCP server to be listed');
  return { codex, log };
}

async function callPlain(codex: RealCodex) {
  codex.server.enqueue(
    mcpToolCallStep('hosted', 'plain', {}, { callId: 'call_hosted' }),
    textStep('done'),
  );
  const sink = recordingSink();
  const run = await codex.session.startRun({ input: textInput('use it'), sink, runRef: 'm1' });
  return { run, sink };
}

describe('mcpServers against the real binary and a real MCP server', () => {
  it('tools ask: the call is raised as a tool approval; approved, the tool runs with its env', async () => {
    const { codex, log } = await withServer('ask', { mcpElicitations: 'bridge' });
    const { run, sink } = await callPlain(codex);
    const approval = await waitForApproval(sink, 'the tool-call approval');
    expect(approval.request).toMatchObject({
      kind: 'approval',
      subject: { category: 'tool', detail: { server: 'hosted', tool: 'plain' } },
    });
    await codex.session.respondToInteraction(approval.providerRef, {
      kind: 'approval',
      decision: 'approved',
      mode: 'once',
    });
    expect(await run.completion).toEqual({ outcome: 'succeeded' });
    expect(log.read().find((e) => e.called === 'plain')?.envProbe).toBe(PROBE);
    // the model's next request carries the tool's answer
    expect(JSON.stringify(codex.server.requests[1]?.body)).toContain('pong');
    // the env value is the host's secret: not in any event, nor in the descriptor
    expect(JSON.stringify([sink.events, codex.sessionSink.events])).not.toContain(PROBE);
    expect(JSON.stringify(codex.provider.describe())).not.toContain(PROBE);
    expect(codex.provider.describe().extensions['mcpServers']).toEqual(['hosted']);
  });

  it('tools approve: the tool runs without asking anyone', async () => {
    const { codex, log } = await withServer('approve');
    const { run, sink } = await callPlain(codex);
    expect(await run.completion).toEqual({ outcome: 'succeeded' });
    expect(sink.ofType('interaction.requested')).toEqual([]);
    expect(log.read().some((e) => e.called === 'plain')).toBe(true);
  });

  it('duplicate names and a bad server are refused at creation, naming paths, never env values', () => {
    const refuse = (mcpServers: unknown) => {
      try {
        createCodexProvider({ mcpServers } as CodexProviderOptions);
      } catch (error) {
        return error;
      }
      return undefined;
    };
    const dup = refuse([
      { name: 'a', command: 'node', env: { TOKEN: PROBE } },
      { name: 'a', url: 'https://mcp.example.invalid/' },
    ]);
    expect(isProviderRejection(dup) && dup.agentError).toMatchObject({
      code: 'invalid_request',
      providerCode: 'invalid_options',
    });
    expect(JSON.stringify(dup)).toContain('mcpServers.1.name');
    expect(JSON.stringify(dup)).not.toContain(PROBE);
    const badEnv = refuse([{ name: 'b', command: 'node', env: { TOKEN: 42 } }]);
    expect(isProviderRejection(badEnv)).toBe(true);
    const neither = refuse([{ name: 'c', args: ['x'] }]);
    expect(isProviderRejection(neither)).toBe(true);
    const badName = refuse([{ name: 'has space', command: 'node' }]);
    expect(isProviderRejection(badName)).toBe(true);
  });
});
