/**
 * The adapter's `mcpServers` option as codex receives it: the thread's own config
 * (`thread/start` `config.mcp_servers`) names a stdio MCP SDK server whose tools are approved in
 * advance, and the model's call of its tool runs without anyone being asked.
 */
import { fileURLToPath } from 'node:url';
import { mcpToolCallStep, textStep } from '../../src/testing/index.js';
import type { Scenario } from './scenario-types.js';
import { mcpServerReady } from './scenarios-interactions.js';

/** The MCP SDK stand-in, loaded from a file in the workspace so no checkout path is recorded. */
const STAND_IN = fileURLToPath(
  new URL('../../test/support/stand-ins/mcp-elicit-server.cjs', import.meta.url),
);

/** The thread's own config names the server, as the adapter's `mcpServers` option sends it. */
const MCP_THREAD_CONFIG = {
  mcp_servers: {
    hosted: {
      command: 'node',
      args: ['<workspace>/mcp-hosted.cjs', '/dev/null'],
      default_tools_approval_mode: 'approve',
    },
  },
};

export const MCP_SCENARIOS: readonly Scenario[] = [
  {
    name: 'mcp_server_thread_config',
    summary:
      'thread/start config.mcp_servers names a stdio MCP SDK server whose tools are approved in advance; the model calls its plain tool, which runs unasked',
    approvalPolicy: 'on-request',
    sandbox: 'read-only',
    workspaceFiles: { 'mcp-hosted.cjs': `require(${JSON.stringify(STAND_IN)});\n` },
    threadStart: { config: MCP_THREAD_CONFIG },
    steps: [
      mcpToolCallStep('hosted', 'plain', {}, { callId: 'call_plain' }),
      textStep(['done'], { itemId: 'msg_mcp', responseId: 'resp_mcp' }),
    ],
    afterThreadStart: mcpServerReady,
    turns: [{ text: 'use the tool' }],
  },
];
