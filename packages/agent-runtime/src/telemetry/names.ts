/**
 * Every span, attribute and metric name the runtime's telemetry emits, in one place:
 * docs/observability.md lists the same names and a test holds the two equal. Names follow the
 * OpenTelemetry GenAI semantic conventions where one applies (`gen_ai.*`, `error.type`); the
 * rest are the runtime's own (`relvo.*`).
 */

/** The instrumentation scope's name on every tracer and meter. */
export const TELEMETRY_SCOPE = '@relvo-labs/agent-runtime';

export const SPAN = {
  session: 'relvo.session',
  turn: 'relvo.turn',
  /** Followed by a space and the tool's name, as the GenAI conventions name a tool span. */
  tool: 'execute_tool',
  interaction: 'relvo.interaction.wait',
} as const;

export const SPAN_EVENT = {
  retry: 'relvo.model.retry',
  answered: 'relvo.interaction.answered',
} as const;

export const ATTR = {
  operation: 'gen_ai.operation.name',
  toolName: 'gen_ai.tool.name',
  inputTokens: 'gen_ai.usage.input_tokens',
  outputTokens: 'gen_ai.usage.output_tokens',
  tokenType: 'gen_ai.token.type',
  errorType: 'error.type',
  sessionId: 'relvo.session.id',
  resumed: 'relvo.session.resumed',
  forkedFrom: 'relvo.session.forked_from',
  closeReason: 'relvo.session.close_reason',
  ownership: 'relvo.workspace.ownership',
  workspaceRoot: 'relvo.workspace.root',
  profile: 'relvo.profile',
  providerId: 'relvo.provider.id',
  turnId: 'relvo.turn.id',
  runId: 'relvo.run.id',
  attempt: 'relvo.run.attempt',
  outcome: 'relvo.turn.outcome',
  turnInput: 'relvo.turn.input',
  toolOutcome: 'relvo.tool.outcome',
  toolDetail: 'relvo.tool.detail',
  interactionId: 'relvo.interaction.id',
  interactionKind: 'relvo.interaction.kind',
  interactionOutcome: 'relvo.interaction.outcome',
  approvalCategory: 'relvo.approval.category',
  approvalDecision: 'relvo.approval.decision',
  interactionSubject: 'relvo.interaction.subject',
  retryNumber: 'relvo.retry.number',
} as const;

/** Attributes that carry prompt, output or paths: set only under `recordContent: true`. */
export const CONTENT_ATTRS: readonly string[] = [
  ATTR.workspaceRoot,
  ATTR.turnInput,
  ATTR.toolDetail,
  ATTR.interactionSubject,
];

export const METRIC = {
  tokenUsage: 'gen_ai.client.token.usage',
  operationDuration: 'gen_ai.client.operation.duration',
  turns: 'relvo.turns',
  turnDuration: 'relvo.turn.duration',
  interactionWait: 'relvo.interaction.wait.duration',
  liveSessions: 'relvo.sessions.live',
  retries: 'relvo.model.retries',
  storeAppend: 'relvo.store.append.duration',
} as const;

/** `gen_ai.operation.name` of a turn and of a tool span (GenAI conventions' values). */
export const OPERATION = { turn: 'invoke_agent', tool: 'execute_tool' } as const;

/** The longest string attribute the runtime sets (content included): cut with `…` past it. */
export const ATTRIBUTE_MAX_CHARS = 4096;
