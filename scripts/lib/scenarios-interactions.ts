/**
 * Scenarios of what a turn asks the client: command approvals, permission requests and MCP
 * elicitations, each answered by the recorder's client. Apart from `scenarios.ts` (the full
 * list) so each file holds one family of recordings.
 */
import {
  execCommandStep,
  mcpToolCallStep,
  requestPermissionsStep,
  scriptedUsage,
  textStep,
  type ScriptedStep,
} from '../../src/testing/index.js';
import type { AppServerDriver, Frame } from './app-server-driver.js';
import type { Scenario, ServerRequestAnswer } from './scenario-types.js';

const ECHO = 'echo out-from-exec-123';

const JUSTIFICATION = 'Scripted test wants to run echo';

const decision =
  (value: string) =>
  (request: Frame): ServerRequestAnswer | undefined =>
    request.method === 'item/commandExecution/requestApproval'
      ? { result: { decision: value } }
      : undefined;

const escalatedEcho = (): ScriptedStep =>
  execCommandStep(ECHO, {
    callId: 'call_exec_1',
    escalate: true,
    justification: JUSTIFICATION,
    usage: scriptedUsage(500, 20, 0, 0),
  });

export const approvalScenario = (name: string, value: string, followUp: boolean): Scenario => ({
  name,
  summary: `on-request/read-only; exec_command require_escalated; client answers ${value}`,
  approvalPolicy: 'on-request',
  sandbox: 'read-only',
  steps: followUp
    ? [
        escalatedEcho(),
        textStep(['Ran ', 'it.'], { itemId: 'msg_after_exec', responseId: 'resp_2' }),
      ]
    : [escalatedEcho()],
  turns: [{ text: 'run the echo', answer: decision(value) }],
});

function permissionsScenario(name: string, grant: 'turn' | 'empty'): Scenario {
  return {
    name,
    summary:
      grant === 'turn'
        ? 'request_permissions for a workspace folder; client grants it for the turn; touch succeeds'
        : 'request_permissions for a workspace folder; client sends the empty grant; touch is denied',
    approvalPolicy: 'on-request',
    sandbox: 'read-only',
    extraConfig: ['features.request_permissions_tool=true'],
    workspaceFiles: { 'granted/.keep': '' },
    steps: [
      requestPermissionsStep(
        { file_system: { write: ['<workspace>/granted'] } },
        'need to write the report',
        { callId: 'call_perm_1' },
      ),
      execCommandStep('touch <workspace>/granted/one.txt', { callId: 'call_touch_1' }),
      textStep(['done'], { itemId: 'msg_perm', responseId: 'resp_perm' }),
    ],
    turns: [
      {
        text: 'write the report',
        answer: (request) => {
          if (request.method !== 'item/permissions/requestApproval') return undefined;
          const params = request.params as { permissions?: unknown } | undefined;
          return grant === 'turn'
            ? { result: { permissions: params?.permissions, scope: 'turn' } }
            : { result: { permissions: {}, scope: 'turn' } };
        },
      },
    ],
  };
}

/** The tool list is built from the servers that are ready when the turn starts: wait for one. */
export async function mcpServerReady(driver: AppServerDriver): Promise<void> {
  await driver.waitFor(
    (f) =>
      f.frame.method === 'mcpServer/startupStatus/updated' &&
      (f.frame.params as { status?: unknown } | undefined)?.status === 'ready',
    { label: 'the MCP server ready' },
  );
}

/**
 * The model calls a tool of a real MCP SDK stdio server (test/support/stand-ins) whose tool
 * elicits; the client accepts codex's approval of the call, then answers the server's request.
 */
function mcpScenario(name: string, tool: 'ask_form' | 'ask_url', reply: unknown): Scenario {
  return {
    name,
    summary: `MCP tool ${tool}: codex's tool-call approval accepted, the server's elicitation answered`,
    approvalPolicy: 'on-request',
    sandbox: 'read-only',
    extraConfig: [
      'mcp_servers.elicit.command="node"',
      'mcp_servers.elicit.args=["<repo>/test/support/stand-ins/mcp-elicit-server.cjs","/dev/null"]',
    ],
    steps: [
      mcpToolCallStep('elicit', tool, {}, { callId: `call_${tool}` }),
      textStep(['done'], { itemId: 'msg_mcp', responseId: 'resp_mcp' }),
    ],
    afterThreadStart: mcpServerReady,
    turns: [
      {
        text: 'use the tool',
        answer: (request) => {
          if (request.method !== 'mcpServer/elicitation/request') return undefined;
          const meta = (request.params as { _meta?: { codex_approval_kind?: unknown } | null })
            ._meta;
          return meta?.codex_approval_kind === 'mcp_tool_call'
            ? { result: { action: 'accept', content: null } }
            : { result: reply };
        },
      },
    ],
  };
}

export const PERMISSION_SCENARIOS: readonly Scenario[] = [
  permissionsScenario('permissions_grant_turn', 'turn'),
  permissionsScenario('permissions_empty_grant', 'empty'),
  mcpScenario('mcp_elicitation_form', 'ask_form', {
    action: 'accept',
    content: { age: 36, agree: true, name: 'Ada' },
  }),
  mcpScenario('mcp_elicitation_url', 'ask_url', { action: 'accept', content: null }),
];
