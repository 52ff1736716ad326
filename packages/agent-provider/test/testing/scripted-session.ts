/** Opens scripted sessions and starts runs on them for the scripted provider's own tests. */
import {
  isProviderRejection,
  type JsonObject,
  type ProviderEventInput,
  type ProviderEventSink,
  type ProviderRun,
  type ProviderRunTermination,
  type ProviderSession,
} from '../../src/index.js';
import { createScriptedProvider, type ScriptedProviderOptions } from '../../src/testing/index.js';
import { APPROVAL } from './scripted-harness.js';

/** A sink that keeps what it is given. */
export function sink() {
  const events: ProviderEventInput[] = [];
  return { events, emit: (e: ProviderEventInput) => events.push(e) };
}

/** What createSession takes: a managed workspace and `sessionSink`. */
const sessionInit = (sessionSink: ProviderEventSink, options: JsonObject = {}) => ({
  options,
  workspace: { root: '/w', ownership: 'managed' as const },
  sink: sessionSink,
});

/** A scripted provider and one session of it; `openSession` opens another of the same provider. */
export async function open(options: ScriptedProviderOptions = {}, sessionOptions: JsonObject = {}) {
  const { provider, controller } = createScriptedProvider(options);
  const sessionSink = sink();
  const session = await provider.createSession(sessionInit(sessionSink, sessionOptions));
  const openSession = () => provider.createSession(sessionInit(sink()));
  return { provider, controller, session, sessionSink, openSession };
}

function watch(run: ProviderRun): { outcome: ProviderRunTermination | undefined } {
  const state: { outcome: ProviderRunTermination | undefined } = { outcome: undefined };
  void run.completion.then((t) => (state.outcome = t));
  return state;
}

export const flush = () => new Promise<void>((r) => setImmediate(r));

/** A turn input of one text part. */
export const text = (t: string) => ({ parts: [{ type: 'text' as const, text: t }] });

/** Starts a run of `text` and watches how it ends. */
export async function start(session: ProviderSession, t: string, runRef = t) {
  const runSink = sink();
  const run = await session.startRun({ input: text(t), sink: runSink, runRef });
  return { run, runSink, state: watch(run) };
}

/** The code a call was refused with, or false when it was not a ProviderRejection. */
export async function refusalCode(call: Promise<unknown> | undefined): Promise<string | false> {
  const error = await Promise.resolve(call).then(
    () => undefined,
    (e: unknown) => e,
  );
  return isProviderRejection(error) && error.agentError.code;
}

export const askScript = {
  ask: [
    { type: 'ask' as const, ref: 'r1', request: APPROVAL },
    { type: 'delta' as const, text: 'go' },
  ],
};
