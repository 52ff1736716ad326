/**
 * The named scenarios recorded against the real binary. Each is data: thread settings, the
 * scripted model steps (consumed in order, one per model request) and the client's turns.
 */
import {
  execCommandStep,
  functionCallStep,
  httpErrorStep,
  mcpToolCallStep,
  rawStep,
  requestPermissionsStep,
  responseFailedStep,
  scriptedUsage,
  textStep,
  type ScriptedStep,
} from '../../src/testing/index.js';
import type { AppServerDriver, Frame } from './app-server-driver.js';
import { EVENTS_SCENARIOS } from './scenarios-events.js';
import { RUN_SCENARIOS } from './scenarios-runs.js';

/** What the client writes back to a server request (the runner adds the id). */
export type ServerRequestAnswer =
  { readonly result: unknown } | { readonly error: { code: number; message: string } };

export interface TurnPlan {
  readonly text: string;
  /** The native `turn/start` input when it is more than `text` (`<workspace>` is substituted). */
  readonly input?: readonly Readonly<Record<string, unknown>>[];
  /** Answers every server request during the turn; unanswered methods get -32601. */
  readonly answer?: (request: Frame) => ServerRequestAnswer | undefined;
  /** Send turn/interrupt once this many agentMessage deltas have arrived. */
  readonly interruptAfterDeltas?: number;
  /** More `turn/start` members (`model`, `effort`, `summary`, `outputSchema`). */
  readonly params?: Readonly<Record<string, unknown>>;
  /** Send `turn/steer` with this text (expectedTurnId: the turn) once the first delta arrived. */
  readonly steer?: string;
}

export interface Scenario {
  readonly name: string;
  readonly summary: string;
  readonly approvalPolicy: 'never' | 'on-request' | 'untrusted';
  readonly sandbox: 'read-only' | 'workspace-write';
  readonly extraConfig?: readonly string[];
  readonly steps: readonly ScriptedStep[];
  readonly turns: readonly TurnPlan[];
  /** Keep listening this long after the last awaited frame before closing stdin. */
  readonly settleMs?: number;
  /** Client traffic before `initialize` (protocol-error probes). */
  readonly beforeInitialize?: (driver: AppServerDriver) => Promise<void>;
  /** Files written into the workspace before the app-server starts (path → content). */
  readonly workspaceFiles?: Readonly<Record<string, string | Uint8Array>>;
  /** false: a persisted thread (`ephemeral: false`), needed by `resume`. Default true. */
  readonly ephemeral?: boolean;
  /**
   * Resume: after the turns, the first app-server is closed and a second one with the
   * same CODEX_HOME resumes the thread (`thread/resume`, `excludeTurns: true`) and runs these
   * turns. Only the second process is recorded; the first is set-up.
   */
  readonly resume?: {
    readonly turns: readonly TurnPlan[];
    /** `unknown`: resume a thread id that was never created (a fresh UUID). */
    readonly thread?: 'recorded' | 'unknown';
    /** `other`: resume with a different cwd (a directory under HOME). */
    readonly cwd?: 'workspace' | 'other';
  };
  /**
   * Fork: after the turns, a second app-server (same CODEX_HOME; the first stays open, as the
   * adapter meets it) forks the thread through its last turn (`thread/fork`, `excludeTurns`)
   * and runs these turns on the new thread. Only the second process is recorded.
   */
  readonly fork?: { readonly turns: readonly TurnPlan[] };
  /** Client traffic after thread/started, before the turns. */
  readonly afterThreadStart?: (driver: AppServerDriver, threadId: string) => Promise<void>;
}

const ECHO = 'echo out-from-exec-123';

/**
 * `response.failed` error codes: every code codex 0.156.1–0.171.0 was seen to classify
 * (measured), plus one it does not know.
 */
export const RESPONSE_FAILED_CODES = [
  'context_length_exceeded',
  'insufficient_quota',
  'usage_not_included',
  'rate_limit_exceeded',
  'slow_down',
  'server_is_overloaded',
  'invalid_prompt',
  'cyber_policy',
  'bio_policy',
  'model_not_found',
  'flex_unavailable',
  'policy_capacity_unavailable',
  'server_error',
  'some_unknown_code',
] as const;
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

const approvalScenario = (name: string, value: string, followUp: boolean): Scenario => ({
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

// Tool activity and file-change approvals. Canary values let the redaction tests
// prove that command lines, output and paths never leave the adapter unredacted.
export const CANARY_SECRET = 'sk-canaryTOOLSECRET0123456789abcdef';
export const CANARY_OUTPUT = 'CANARY-OUTPUT-7f3a9';
export const PATCH_PATH = 'notes/hello.txt';
/** A 1×1 PNG for the file-reference scenario. */
export const ONE_PIXEL_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** What the scripted model sends to propose a patch: this model slug gets no apply_patch tool. */
export function applyPatchCommand(path: string, line: string): string {
  return `apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: ${path}\n+${line}\n*** End Patch\nEOF\n`;
}

const fileChangeDecision =
  (value: string) =>
  (request: Frame): ServerRequestAnswer | undefined =>
    request.method === 'item/fileChange/requestApproval'
      ? { result: { decision: value } }
      : undefined;

const fileChangeScenario = (name: string, value: string): Scenario => ({
  name,
  summary: `untrusted/workspace-write; apply_patch adds ${PATCH_PATH}; client answers ${value}`,
  approvalPolicy: 'untrusted',
  sandbox: 'workspace-write',
  steps: [
    execCommandStep(applyPatchCommand(PATCH_PATH, 'LINE'), {
      callId: 'call_patch_1',
      usage: scriptedUsage(500, 20, 0, 0),
    }),
    textStep(['Patched', '.'], { itemId: 'msg_after_patch', responseId: 'resp_2' }),
  ],
  turns: [{ text: 'write the note', answer: fileChangeDecision(value) }],
});

export const ISSUE_14_SCENARIOS: readonly Scenario[] = [
  {
    name: 'tool_activity',
    summary:
      'never/workspace-write: a command that prints a canary and names a canary secret, a failing command, ' +
      'a patch applied without approval, a web search item, then text',
    approvalPolicy: 'never',
    sandbox: 'workspace-write',
    steps: [
      execCommandStep(`echo ${CANARY_OUTPUT} ${CANARY_SECRET}`, {
        callId: 'call_ok_1',
        usage: scriptedUsage(500, 20, 0, 0),
      }),
      execCommandStep('ls /nonexistent-canary-dir', {
        callId: 'call_fail_1',
        usage: scriptedUsage(520, 20, 0, 0),
      }),
      execCommandStep(applyPatchCommand(PATCH_PATH, 'LINE'), {
        callId: 'call_patch_1',
        usage: scriptedUsage(540, 20, 0, 0),
      }),
      rawStep([
        { type: 'response.created', response: { id: 'resp_ws' } },
        {
          type: 'response.output_item.added',
          output_index: 0,
          item: { type: 'web_search_call', id: 'ws_1', status: 'in_progress' },
        },
        {
          type: 'response.output_item.done',
          output_index: 0,
          item: {
            type: 'web_search_call',
            id: 'ws_1',
            status: 'completed',
            action: { type: 'search', query: `canary query ${CANARY_SECRET}` },
          },
        },
        {
          type: 'response.output_item.added',
          output_index: 1,
          item: {
            type: 'message',
            role: 'assistant',
            id: 'msg_ws',
            status: 'in_progress',
            content: [],
          },
        },
        {
          type: 'response.output_text.delta',
          item_id: 'msg_ws',
          output_index: 1,
          content_index: 0,
          delta: 'Done.',
        },
        {
          type: 'response.output_item.done',
          output_index: 1,
          item: {
            type: 'message',
            role: 'assistant',
            id: 'msg_ws',
            status: 'completed',
            content: [{ type: 'output_text', text: 'Done.', annotations: [] }],
          },
        },
        {
          type: 'response.completed',
          response: { id: 'resp_ws', usage: scriptedUsage(560, 5, 0, 0) },
        },
      ]),
    ],
    turns: [{ text: 'show your tools' }],
  },
  fileChangeScenario('file_change_accept', 'accept'),
  fileChangeScenario('file_change_decline', 'decline'),
  {
    name: 'resume',
    summary:
      'persisted thread: one turn in a first app-server; a second one (same CODEX_HOME) resumes it with excludeTurns and runs a turn',
    approvalPolicy: 'never',
    sandbox: 'read-only',
    ephemeral: false,
    steps: [
      textStep(['Noted', '.'], {
        itemId: 'msg_1',
        responseId: 'resp_1',
        usage: scriptedUsage(900, 5, 0, 0),
      }),
      textStep(['You said ', 'PINEAPPLE-42.'], {
        itemId: 'msg_2',
        responseId: 'resp_2',
        usage: scriptedUsage(950, 6, 0, 0),
      }),
    ],
    turns: [{ text: 'remember PINEAPPLE-42' }],
    resume: { turns: [{ text: 'what did I say?' }] },
  },
  {
    name: 'resume_unknown_thread',
    summary: 'measurement: thread/resume of a thread id that was never created',
    approvalPolicy: 'never',
    sandbox: 'read-only',
    ephemeral: false,
    steps: [],
    turns: [],
    resume: { turns: [], thread: 'unknown' },
  },
  {
    name: 'resume_other_cwd',
    summary: 'measurement: thread/resume of a persisted thread with another cwd',
    approvalPolicy: 'never',
    sandbox: 'read-only',
    ephemeral: false,
    steps: [textStep(['Noted', '.'], { itemId: 'msg_1', responseId: 'resp_1' })],
    turns: [{ text: 'remember' }],
    resume: { turns: [], cwd: 'other' },
  },
  {
    name: 'file_ref',
    summary:
      'file references as the adapter sends them: text naming the workspace-relative paths plus a localImage for the image',
    approvalPolicy: 'never',
    sandbox: 'read-only',
    workspaceFiles: { 'notes/a.txt': 'REFERENCED-CONTENT\n', 'pic.png': ONE_PIXEL_PNG },
    steps: [textStep(['Seen', '.'], { itemId: 'msg_1', responseId: 'resp_1' })],
    turns: [
      {
        text: 'look',
        input: [
          {
            type: 'text',
            text: 'look\n\n[referenced file: notes/a.txt]\n\n[referenced file: pic.png]',
          },
          { type: 'localImage', path: '<workspace>/pic.png' },
        ],
      },
    ],
  },
  {
    name: 'file_change_on_request_workspace_write',
    summary:
      'measurement: on-request/workspace-write; apply_patch adds a file; codex applies it without asking',
    approvalPolicy: 'on-request',
    sandbox: 'workspace-write',
    steps: [
      execCommandStep(applyPatchCommand(PATCH_PATH, 'LINE'), {
        callId: 'call_patch_1',
        usage: scriptedUsage(500, 20, 0, 0),
      }),
      textStep(['Patched', '.'], { itemId: 'msg_after_patch', responseId: 'resp_2' }),
    ],
    turns: [{ text: 'write the note', answer: fileChangeDecision('accept') }],
  },
];

/**
 * The model asks for write access to `<workspace>/granted` (`request_permissions`, a feature under
 * development) and then writes there; the client grants the requested profile for the turn.
 */
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
    // the tool list is built from the servers that are ready when the turn starts
    afterThreadStart: async (driver) => {
      await driver.waitFor(
        (f) =>
          f.frame.method === 'mcpServer/startupStatus/updated' &&
          (f.frame.params as { status?: unknown } | undefined)?.status === 'ready',
        { label: 'the MCP server ready' },
      );
    },
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

export const SCENARIOS: readonly Scenario[] = [
  {
    name: 'handshake',
    summary: 'initialize, initialized, thread/start; then 1 s of silence before stdin closes',
    approvalPolicy: 'never',
    sandbox: 'read-only',
    steps: [],
    turns: [],
    settleMs: 1_000,
  },
  {
    name: 'text_turn',
    summary: 'one streamed text answer with usage',
    approvalPolicy: 'never',
    sandbox: 'read-only',
    steps: [
      textStep(['Hello', ' world'], {
        itemId: 'msg_1',
        responseId: 'resp_1',
        usage: scriptedUsage(1200, 30, 200, 5),
      }),
    ],
    turns: [{ text: 'hi' }],
  },
  {
    name: 'two_turns',
    summary: 'two text turns on one thread; usage totals accumulate',
    approvalPolicy: 'never',
    sandbox: 'read-only',
    steps: [
      textStep(['First', ' answer'], {
        itemId: 'msg_1',
        responseId: 'resp_1',
        usage: scriptedUsage(1200, 30, 200, 5),
      }),
      textStep(['Second', ' answer'], {
        itemId: 'msg_2',
        responseId: 'resp_2',
        usage: scriptedUsage(1270, 38, 1000, 0),
      }),
    ],
    turns: [{ text: 'hi' }, { text: 'again' }],
  },
  {
    name: 'protocol_errors',
    summary:
      'request before initialize; after the handshake: a malformed line (not recorded: it is not a frame; ' +
      'it was written right before the unknown method), an unknown method, a bad enum, a second initialize, ' +
      'turn/interrupt with no active turn',
    approvalPolicy: 'never',
    sandbox: 'read-only',
    steps: [],
    turns: [],
    beforeInitialize: async (d) => {
      await d.request('thread/start', { cwd: '/', ephemeral: true });
    },
    afterThreadStart: async (d, threadId) => {
      d.sendRaw('{"id": 99, "method": \n');
      await d.request('bogus/method', {});
      await d.request('thread/start', { cwd: '/', approvalPolicy: 'bogus', ephemeral: true });
      await d.request('initialize', {
        clientInfo: { name: 'relvo_agent_runtime', version: '0.1.0' },
        capabilities: null,
      });
      await d.request('turn/interrupt', { threadId, turnId: 'no-such-turn' });
    },
  },
  approvalScenario('approval_accept', 'accept', true),
  approvalScenario('approval_decline', 'decline', true),
  approvalScenario('approval_cancel', 'cancel', false),
  {
    name: 'interrupt',
    summary: 'one delta per 200 ms; turn/interrupt after the 5th delta',
    approvalPolicy: 'never',
    sandbox: 'read-only',
    steps: [
      textStep(
        Array.from({ length: 30 }, (_, i) => `d${i} `),
        { itemId: 'msg_slow', responseId: 'resp_slow', delayMs: 200 },
      ),
    ],
    turns: [{ text: 'talk slowly', interruptAfterDeltas: 5 }],
  },
  {
    name: 'http_500',
    summary: 'model answers HTTP 500; retries off',
    approvalPolicy: 'never',
    sandbox: 'read-only',
    steps: [httpErrorStep(500, { error: { message: 'scripted 500' } })],
    turns: [{ text: 'hi' }],
  },
  {
    name: 'stream_closed',
    summary: 'model drops the connection after one delta; retries off',
    approvalPolicy: 'never',
    sandbox: 'read-only',
    steps: [
      textStep(['Hel', 'lo', ' world'], {
        itemId: 'msg_cut',
        responseId: 'resp_cut',
        closeAfterDeltas: 1,
      }),
    ],
    turns: [{ text: 'hi' }],
  },
  {
    name: 'response_failed',
    summary: 'model sends response.failed',
    approvalPolicy: 'never',
    sandbox: 'read-only',
    steps: [responseFailedStep('server_error', 'scripted response.failed')],
    turns: [{ text: 'hi' }],
  },
  {
    name: 'request_user_input',
    summary:
      'default-mode request_user_input (feature flag); client refuses with -32602; turn finishes',
    approvalPolicy: 'never',
    sandbox: 'read-only',
    extraConfig: ['features.default_mode_request_user_input=true'],
    steps: [
      functionCallStep(
        'request_user_input',
        {
          questions: [
            {
              id: 'color_choice',
              header: 'Color',
              question: 'Which color?',
              options: [
                { label: 'Red', description: 'Loud.' },
                { label: 'Blue', description: 'Calm.' },
              ],
            },
          ],
        },
        { callId: 'call_rui_1', itemId: 'fc_rui_1', usage: scriptedUsage(500, 20, 0, 0) },
      ),
      textStep(['No answer', ', moving on.'], { itemId: 'msg_after_rui', responseId: 'resp_2' }),
    ],
    turns: [
      {
        text: 'ask me a color',
        answer: (request) =>
          request.method === 'item/tool/requestUserInput'
            ? { error: { code: -32602, message: 'not_blocking' } }
            : undefined,
      },
    ],
  },
  // Upstream failures a host must be able to act on: each recorded on the
  // baseline so the classification is tested on what the binary really sends.
  {
    name: 'http_401',
    summary: 'model answers HTTP 401 (invalid key); retries off',
    approvalPolicy: 'never',
    sandbox: 'read-only',
    steps: [
      httpErrorStep(401, {
        error: {
          message: 'scripted bad key',
          type: 'invalid_request_error',
          code: 'invalid_api_key',
        },
      }),
    ],
    turns: [{ text: 'hi' }],
  },
  {
    name: 'http_429',
    summary: 'model answers HTTP 429 with retry-after: 7; retries off',
    approvalPolicy: 'never',
    sandbox: 'read-only',
    steps: [
      httpErrorStep(
        429,
        { error: { message: 'scripted rate limit', type: 'rate_limit_exceeded' } },
        { 'retry-after': '7' },
      ),
    ],
    turns: [{ text: 'hi' }],
  },
  {
    name: 'http_errors',
    summary: 'one turn per HTTP failure on one thread: 403, 404, 503, 429 usage_limit_reached',
    approvalPolicy: 'never',
    sandbox: 'read-only',
    steps: [
      httpErrorStep(403, { error: { message: 'scripted forbidden' } }),
      httpErrorStep(404, {
        error: { message: 'scripted model not found', code: 'model_not_found' },
      }),
      httpErrorStep(503, { error: { message: 'scripted unavailable' } }),
      httpErrorStep(429, {
        error: {
          type: 'usage_limit_reached',
          message: 'scripted usage limit',
          resets_in_seconds: 120,
        },
      }),
    ],
    turns: [
      { text: 'forbidden' },
      { text: 'not found' },
      { text: 'unavailable' },
      { text: 'usage' },
    ],
  },
  {
    name: 'stream_stall',
    summary: 'model sends one delta then nothing; stream_idle_timeout_ms=1500; retries off',
    approvalPolicy: 'never',
    sandbox: 'read-only',
    extraConfig: ['model_providers.scripted.stream_idle_timeout_ms=1500'],
    steps: [
      textStep(['Hel', 'lo'], {
        itemId: 'msg_stall',
        responseId: 'resp_stall',
        stallAfterDeltas: 1,
      }),
    ],
    turns: [{ text: 'hi' }],
  },
  {
    name: 'response_failed_codes',
    summary:
      'one turn per response.failed error code on one thread (the codes codex recognises, plus an unknown one)',
    approvalPolicy: 'never',
    sandbox: 'read-only',
    steps: RESPONSE_FAILED_CODES.map((code) => responseFailedStep(code, `scripted ${code}`)),
    turns: RESPONSE_FAILED_CODES.map((code) => ({ text: code })),
  },
  ...ISSUE_14_SCENARIOS,
  ...EVENTS_SCENARIOS,
  ...PERMISSION_SCENARIOS,
  ...RUN_SCENARIOS,
];

export function findScenario(name: string): Scenario {
  const scenario = SCENARIOS.find((s) => s.name === name);
  if (scenario === undefined) throw new Error(`unknown scenario ${name}`);
  return scenario;
}
