/**
 * Frame-test harness for the Codex provider: a fake transport (every outbound frame checked
 * against the pinned schema), recording sinks, and transcript replay.
 */
import type {
  ProviderEventInput,
  ProviderEventSink,
  ProviderSession,
} from '@relvo-labs/agent-provider';
import {
  createCodexProvider,
  type CodexProvider,
  type CodexProviderOptions,
  type CodexIterableTransport,
} from '../../src/index.js';
import { useFakeTransport, type FakeTransport } from './fake-transport.js';
import {
  loadTranscript,
  replay,
  type ReplayOptions,
  type ReplayResult,
  type TranscriptLine,
} from './replay.js';

export const WORKSPACE = '/work/replay-workspace';

export interface RecordingSink extends ProviderEventSink {
  readonly events: ProviderEventInput[];
  ofType<T extends ProviderEventInput['payload']['type']>(
    type: T,
  ): Extract<ProviderEventInput['payload'], { type: T }>[];
}

export function recordingSink(): RecordingSink {
  const events: ProviderEventInput[] = [];
  return {
    events,
    emit(event) {
      events.push(event);
    },
    ofType(type) {
      return events.map((e) => e.payload).filter((p) => p.type === type) as never;
    },
  };
}

/** The text a run streamed to `sink`: its message deltas, joined. */
export function texts(sink: RecordingSink): string {
  return sink
    .ofType('run.message_delta')
    .map((d) => d.text)
    .join('');
}

export interface ProviderHarness {
  readonly transport: FakeTransport;
  readonly provider: CodexProvider;
  readonly sessionSink: RecordingSink;
  openSession(options?: Record<string, string>): Promise<ProviderSession>;
}

/**
 * A provider on a fake transport. `override` replaces members of the transport the provider
 * sees (e.g. a close() that fails); the test still pushes and reads through the fake.
 */
export function createProviderHarness(
  options: Omit<CodexProviderOptions, 'transport'> = {},
  override?: (fake: FakeTransport) => Partial<CodexIterableTransport>,
): ProviderHarness {
  const transport = useFakeTransport();
  const seen: CodexIterableTransport =
    override === undefined
      ? transport
      : {
          incoming: transport.incoming,
          send: (message) => transport.send(message),
          close: () => transport.close(),
          ...override(transport),
        };
  const provider = createCodexProvider({ ...options, transport: () => seen });
  const sessionSink = recordingSink();
  return {
    transport,
    provider,
    sessionSink,
    openSession: (sessionOptions = {}) =>
      provider.createSession({
        options: sessionOptions,
        workspace: { root: WORKSPACE, ownership: 'borrowed' },
        sink: sessionSink,
      }),
  };
}

/** Replay options a test may set; the workspace is always the harness's. */
export type HarnessReplayOptions = Omit<ReplayOptions, 'workspace'>;

/** Replays `lines` into the harness's transport in the background. */
export function replayLines(
  harness: ProviderHarness,
  lines: TranscriptLine[],
  options: HarnessReplayOptions = {},
): Promise<ReplayResult> {
  return replay(harness.transport, lines, { workspace: WORKSPACE, ...options });
}

/** Starts replaying `scenario` in the background; await the promise at the end of the test. */
export const startReplay = (
  harness: ProviderHarness,
  scenario: string,
  options: HarnessReplayOptions = {},
): Promise<ReplayResult> => replayLines(harness, loadTranscript(scenario), options);

export function textInput(text: string) {
  return { parts: [{ type: 'text' as const, text }] };
}
