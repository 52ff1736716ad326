/**
 * `mcpServers` through the whole adapter on the fake transport, replaying what the real binary
 * recorded on three releases (`mcp_server_thread_config`): the option goes out as codex's own
 * `config.mcp_servers` on `thread/start`, exactly the table recorded, and a tool of a server
 * approved in advance runs with nothing raised to the host.
 */
import { describe, expect, it } from 'vitest';
import { restorePlaceholders } from '../../src/testing/index.js';
import {
  createProviderHarness,
  recordingSink,
  textInput,
  WORKSPACE,
} from '../support/provider-harness.js';
import { loadTranscript, replay, replayPlaceholders } from '../support/replay.js';

const RELEASES = ['0.153.4', '0.160.0', '0.171.0'] as const;

describe.each(RELEASES)('mcpServers replayed from codex %s', (release) => {
  it('sends the recorded thread config; the approved tool runs unasked', async () => {
    const h = createProviderHarness({
      toolActivity: 'redacted',
      mcpServers: [
        {
          name: 'hosted',
          command: 'node',
          args: [`${WORKSPACE}/mcp-hosted.cjs`, '/dev/null'],
          tools: 'approve',
        },
      ],
    });
    const lines = loadTranscript('mcp_server_thread_config', release);
    const replaying = replay(h.transport, lines, { workspace: WORKSPACE });
    const session = await h.openSession();
    const sink = recordingSink();
    const run = await session.startRun({ input: textInput('use the tool'), sink, runRef: 'r' });
    expect((await run.completion).outcome).toBe('succeeded');
    await replaying;
    const recorded = lines.find((l) => l.dir === 'c2s' && l.frame['method'] === 'thread/start');
    const sent = h.transport.sent.find((f) => f.method === 'thread/start');
    const config = (frame: unknown) => (frame as { params?: { config?: unknown } }).params?.config;
    expect(config(sent)).toEqual(
      config(restorePlaceholders(recorded?.frame, replayPlaceholders(WORKSPACE))),
    );
    expect(sink.ofType('interaction.requested')).toEqual([]);
    const tools = sink.ofType('run.tool_activity');
    expect(tools.map((t) => [t.toolName, t.phase])).toEqual([
      ['mcp_tool', 'invoked'],
      ['mcp_tool', 'succeeded'],
    ]);
    await session.dispose();
  });
});
