/**
 * A conformance harness over the scripted provider: scenarios select scripts through the turn
 * text, `pump` drains, and a thin counting layer observes native effects below any wrapper a
 * test puts on top (the broken providers).
 */
import {
  ProviderRejection,
  agentError,
  type AgentProvider,
  type InteractionRequestInput,
  type ProviderRecoveryRecord,
  type ProviderSession,
  type ProviderSessionInit,
} from '../../src/index.js';
import {
  createScriptedProvider,
  type ConformanceHarness,
  type ConformanceScenario,
  type ScriptStepInput,
  type ScriptedController,
  type ScriptedProviderOptions,
} from '../../src/testing/index.js';

export const SECRET = 'sk-scripted-SECRET-4242';
/** Scripts per scenario: enough distinct keys that refs stay unique within a session. */
const SCRIPT_COPIES = 40;

export const APPROVAL: InteractionRequestInput = {
  kind: 'approval',
  subject: { category: 'command', summary: 'run the tests' },
  allowedModes: ['once', 'session'],
};

export const QUESTION_SET: InteractionRequestInput = {
  kind: 'question_set',
  questions: [
    {
      key: 'colour',
      prompt: 'Which colour?',
      choices: [
        { value: 'red', label: 'Red' },
        { value: 'blue', label: 'Blue' },
      ],
    },
    { key: 'name', prompt: 'Your name?' },
  ],
};

function scenarioScript(
  scenario: ConformanceScenario,
  n: number,
  failMessage: string,
): ScriptStepInput[] {
  switch (scenario) {
    case 'complete':
      return [
        { type: 'delta', text: 'hello ' },
        { type: 'tool', toolName: 'shell', phase: 'invoked' },
        { type: 'tool', toolName: 'shell', phase: 'succeeded' },
        {
          type: 'extension',
          namespace: 'scripted',
          kind: 'plan',
          data: { steps: [{ step: 'greet', status: 'completed' }] },
        },
        { type: 'delta', text: 'world' },
        { type: 'usage', usage: { inputTokens: 3, outputTokens: 2, totalTokens: 5 } },
        { type: 'succeed' },
      ];
    case 'fail':
      return [
        { type: 'delta', text: 'partial' },
        { type: 'fail', message: failMessage },
      ];
    case 'hang':
      // Only an ask blocks a scripted run; this one is never answered.
      return [
        { type: 'delta', text: 'working' },
        { type: 'ask', ref: `hang-${String(n)}`, request: APPROVAL },
        { type: 'succeed' },
      ];
    case 'approval':
      return [
        { type: 'ask', ref: `approval-${String(n)}`, request: APPROVAL },
        { type: 'delta', text: 'approved' },
        { type: 'succeed' },
      ];
    case 'question':
      return [
        { type: 'ask', ref: `question-${String(n)}`, request: QUESTION_SET },
        { type: 'delta', text: 'answered' },
        { type: 'succeed' },
      ];
  }
}

const SCENARIOS: readonly ConformanceScenario[] = [
  'complete',
  'fail',
  'hang',
  'approval',
  'question',
];

export interface ScriptedHarnessOptions {
  readonly interruptMode?: ScriptedProviderOptions['interruptMode'];
  /** The message of the scripted failure (a broken variant plants the secret here). */
  readonly failMessage?: string;
  /** Wraps the (counted) scripted provider, e.g. to break one property. */
  readonly wrap?: (provider: AgentProvider, controller: ScriptedController) => AgentProvider;
}

interface Counters {
  sessions: number;
  responses: number;
  failNextDispose: boolean;
}

/** Counts effects the scripted provider really had; also injects one dispose failure on demand. */
function counted(
  provider: AgentProvider,
  controller: ScriptedController,
  counters: Counters,
): AgentProvider {
  const wrapSession = (session: ProviderSession): ProviderSession => ({
    startRun: (request) => session.startRun(request),
    async respondToInteraction(ref, response) {
      const pending = controller.pendingInteractionRefs().includes(ref);
      await session.respondToInteraction(ref, response);
      if (pending && !controller.pendingInteractionRefs().includes(ref)) counters.responses += 1;
    },
    dispose() {
      if (counters.failNextDispose) {
        counters.failNextDispose = false;
        return Promise.reject(new Error('injected teardown failure'));
      }
      return session.dispose();
    },
    ...(session.revert ? { revert: (request) => session.revert!(request) } : {}),
    ...(session.history ? { history: (request) => session.history!(request) } : {}),
    ...(session.exportRecoveryRecord
      ? {
          exportRecoveryRecord: () =>
            (
              session.exportRecoveryRecord as () => ReturnType<
                NonNullable<ProviderSession['exportRecoveryRecord']>
              >
            ).call(session),
        }
      : {}),
  });
  const forkSession = provider.forkSession?.bind(provider);
  return {
    describe: () => provider.describe(),
    async createSession(init) {
      const session = await provider.createSession(init);
      counters.sessions += 1;
      return wrapSession(session);
    },
    ...(forkSession === undefined
      ? {}
      : {
          async forkSession(record: ProviderRecoveryRecord, init: ProviderSessionInit) {
            const session = await forkSession(record, init);
            counters.sessions += 1;
            return wrapSession(session);
          },
        }),
  };
}

export function scriptedHarness(options: ScriptedHarnessOptions = {}): ConformanceHarness {
  const failMessage = options.failMessage ?? 'the scripted run failed';
  return {
    nativeIdentifiers: ['scripted-session-'],
    secretMarkers: [SECRET],
    create() {
      const scripts: Record<string, ScriptStepInput[]> = {};
      for (const scenario of SCENARIOS) {
        for (let n = 1; n <= SCRIPT_COPIES; n += 1)
          scripts[`${scenario}#${String(n)}`] = scenarioScript(scenario, n, failMessage);
      }
      const { provider, controller } = createScriptedProvider({
        scripts,
        supportsRunOptions: true,
        supportsFork: true,
        supportsRevert: true,
        supportsHistory: true,
        ...(options.interruptMode !== undefined ? { interruptMode: options.interruptMode } : {}),
      });
      const counters: Counters = { sessions: 0, responses: 0, failNextDispose: false };
      const base = counted(provider, controller, counters);
      const subjectProvider = options.wrap ? options.wrap(base, controller) : base;
      const used = new Map<ConformanceScenario, number>();
      return {
        provider: subjectProvider,
        sessionInit: () => ({
          options: {},
          workspace: { root: '/tmp/scripted-workspace', ownership: 'managed' },
        }),
        driver: {
          script(scenario) {
            const n = (used.get(scenario) ?? 0) + 1;
            used.set(scenario, n);
            return { parts: [{ type: 'text', text: `${scenario}#${String(n)}` }] };
          },
          pump: () => {
            controller.drain();
          },
          effects: () => ({
            sessions: counters.sessions,
            runs: controller.startedRuns.length,
            responses: counters.responses,
            interrupts: controller.interruptedRuns.length,
            disposals: controller.disposedSessions.length,
          }),
          failNextDispose: () => {
            counters.failNextDispose = true;
          },
        },
      };
    },
  };
}

/** A ProviderRejection, for wrappers that refuse. */
export function refusal(
  code: Parameters<typeof agentError>[0],
  message: string,
): ProviderRejection {
  return new ProviderRejection(agentError(code, message));
}
