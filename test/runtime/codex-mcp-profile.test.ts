/**
 * A runtime profile's `mcpServers` on the REAL codex (scripted model on 127.0.0.1) with a real MCP
 * server (the MCP SDK): the profile's sessions get the server; the model's call of its tool is
 * raised in the session as a tool approval, approved through the runtime, and the tool runs with
 * the profile's env; its answer reaches the model's next request; the env value is in no event.
 * (codex asks a tool approval of an MCP server as an elicitation: `mcpElicitations: 'bridge'`.)
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EventEnvelope } from '@relvo-labs/agent-runtime';
import { afterEach, describe, expect, it } from 'vitest';
import { mcpToolCallStep, textStep } from '../../src/testing/index.js';
import { codexRuntime } from '../support/codex-runtime.js';
import { REPO_ROOT } from '../support/paths.js';

const SERVER = join(REPO_ROOT, 'test/support/stand-ins/mcp-elicit-server.cjs');
const PROBE = 'profile-mcp-env-CANARY-9321';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function until(probe: () => boolean | Promise<boolean>, label: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${label}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("a runtime profile's MCP server on the real binary", () => {
  it('its tool call is approved through the runtime and runs with the profile’s env', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'relvo-mcp-profile-log-'));
    cleanups.push(() => {
      rmSync(dir, { recursive: true, force: true });
    });
    const logPath = join(dir, 'log.jsonl');
    const logged = (): { listed?: boolean; called?: string; envProbe?: string | null }[] =>
      existsSync(logPath)
        ? readFileSync(logPath, 'utf8')
            .split('\n')
            .filter((l) => l !== '')
            .map((l) => JSON.parse(l) as { listed?: boolean; called?: string })
        : [];
    const { runtime, server, workspace } = await codexRuntime(cleanups, {
      prefix: 'relvo-mcp-profile-',
      providerOptions: {
        approvals: 'bridge',
        mcpElicitations: 'bridge',
        mcpServers: [
          {
            name: 'hosted',
            command: 'node',
            args: [SERVER, logPath],
            env: { RELVO_MCP_PROBE: PROBE },
            tools: 'ask',
          },
        ],
      },
    });
    server.enqueue(
      textStep('ready'),
      mcpToolCallStep('hosted', 'plain', {}, { callId: 'call_hosted' }),
      textStep('done'),
    );
    const session = await runtime.openSession({ workspace });
    const first = await session.submitTurn({ input: 'hello' });
    expect((await first.done).termination).toMatchObject({ outcome: 'succeeded' });
    // codex started the profile's server with the thread and listed its tools
    await until(() => logged().some((e) => e.listed === true), 'the MCP server to be listed');

    const second = await session.submitTurn({ input: 'use it' });
    await until(() => session.pendingInteractions().length === 1, 'the tool approval');
    const [pending] = session.pendingInteractions();
    expect(pending?.request).toMatchObject({
      kind: 'approval',
      subject: { category: 'tool', detail: { server: 'hosted', tool: 'plain' } },
    });
    expect(logged().some((e) => e.called === 'plain')).toBe(false);
    await runtime.respond(session.id, pending!.interactionId, {
      kind: 'approval',
      decision: 'approved',
      mode: 'once',
    });
    expect((await second.done).termination).toMatchObject({ outcome: 'succeeded' });
    expect(logged().find((e) => e.called === 'plain')?.envProbe).toBe(PROBE);
    expect(JSON.stringify(server.requests.at(-1)?.body)).toContain('pong');
    const events: readonly EventEnvelope[] = await runtime.readEvents(session.id);
    expect(events.map((e) => e.payload.type)).toContain('interaction.settled');
    expect(JSON.stringify(events)).not.toContain(PROBE);
  }, 120_000);
});
