/**
 * What the adapter publishes for one recorded scenario: the recording's server frames are replayed
 * to `createCodexProvider` through a transport (its public seam), and the host's part is taken
 * from the recording's client frames: `initialize` opens a session, each `turn/start` starts a
 * run with the recorded input text, a reply to an approval answers the interaction the adapter
 * raised with the recorded decision, and `turn/interrupt` interrupts the run. Every event the
 * session and its runs emit, and each run's termination, is collected in order. Only the
 * adapter's public API is used, so the replay does not depend on how the adapter is built inside.
 */
import {
  isProviderRejection,
  type InteractionResponse,
  type ProviderEventInput,
  type ProviderRun,
  type ProviderRunTermination,
  type ProviderSession,
} from '@relvo-labs/agent-provider';
import { createCodexProvider, type CodexIterableTransport } from '../../../src/index.js';
import { restorePlaceholders, type TranscriptLine } from '../../../src/testing/index.js';

/** One thing the adapter published: from which sink (or a run's end), in emission order. */
export interface Published {
  readonly source: string;
  readonly value: unknown;
}

export interface PublishReplayResult {
  readonly published: readonly Published[];
  /** Set when the replay could not finish (the adapter never wrote what the recording expects). */
  readonly failure?: string;
}

type Frame = Record<string, unknown>;

export const REPLAY_WORKSPACE = '/work/replay-workspace';
const PLACEHOLDERS = {
  workspace: REPLAY_WORKSPACE,
  home: '/home/replay',
  codexHome: '/home/replay/.codex',
  hostname: 'replay-host',
};
/** How long the replay waits for the adapter to write one expected frame. */
const STEP_TIMEOUT_MS = 5_000;

const isReply = (f: Frame): boolean => !('method' in f) && 'id' in f;
const isRequest = (f: Frame): boolean => 'method' in f && 'id' in f;

/** A transport fed from the recording; it never touches a process. */
class ReplayTransport implements CodexIterableTransport {
  readonly sent: Frame[] = [];
  readonly #queue: unknown[] = [];
  #wake: (() => void) | undefined;
  #closed = false;
  readonly incoming: AsyncIterable<unknown> = { [Symbol.asyncIterator]: () => this.#iterate() };

  send(message: unknown): boolean {
    if (this.#closed) return false;
    this.sent.push(JSON.parse(JSON.stringify(message)) as Frame);
    return true;
  }

  /** Whether the adapter has taken every frame pushed so far. */
  drained(): boolean {
    return this.#queue.length === 0;
  }

  push(frame: unknown): void {
    this.#queue.push(frame);
    this.#wake?.();
  }

  close(): Promise<void> {
    this.#closed = true;
    this.#wake?.();
    return Promise.resolve();
  }

  async *#iterate(): AsyncGenerator {
    for (;;) {
      const next = this.#queue.shift();
      if (next !== undefined) {
        yield next;
        continue;
      }
      if (this.#closed) return;
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
      });
      this.#wake = undefined;
    }
  }
}

/** Lets the adapter run until `done` holds, or fails after STEP_TIMEOUT_MS naming `what`. */
async function until(done: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + STEP_TIMEOUT_MS;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`the adapter never ${what}`);
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

/** The host's answer to an approval, from the decision the recording's client sent. */
function answerOf(result: unknown): InteractionResponse {
  const decision = (result as { decision?: unknown } | undefined)?.decision;
  if (decision === 'accept') return { kind: 'approval', decision: 'approved', mode: 'once' };
  if (decision === 'acceptForSession')
    return { kind: 'approval', decision: 'approved', mode: 'session' };
  return { kind: 'approval', decision: 'denied' };
}

const inputText = (params: unknown): string => {
  const input = (params as { input?: readonly { text?: unknown }[] } | undefined)?.input;
  const text = input?.find((i) => typeof i.text === 'string')?.text;
  return typeof text === 'string' && text !== '' ? text : 'replayed';
};

interface Refused {
  readonly outcome: 'refused';
  readonly refusal: unknown;
}
const refused = (error: unknown): Refused => ({
  outcome: 'refused',
  refusal: isProviderRejection(error) ? error.agentError : 'not a provider rejection',
});

/** The client methods the adapter writes by itself or on the host's behalf. */
const ADAPTER_WRITES = new Set([
  'initialize',
  'initialized',
  'thread/start',
  'turn/start',
  'turn/interrupt',
]);

/**
 * Whether the adapter can play the client's part of `lines`: every client request or
 * notification in it is one the adapter writes, and the session opens with `initialize`. (Raw
 * protocol probes and resumed threads are not: they are judged by their frames alone.)
 */
export function isReplayable(lines: readonly TranscriptLine[]): boolean {
  const client = lines.filter((l) => l.dir === 'c2s' && typeof l.frame.method === 'string');
  return (
    client[0]?.frame.method === 'initialize' &&
    client.every((l) => ADAPTER_WRITES.has(String(l.frame.method)))
  );
}

/** Replays `lines` to a provider accepting `version`, and returns what it published. */
export async function publishReplay(
  lines: readonly TranscriptLine[],
  version: string,
): Promise<PublishReplayResult> {
  const transport = new ReplayTransport();
  const published: Published[] = [];
  // what the host sees while the scenario runs; its own dispose at the end is not part of it
  let collecting = true;
  const sink = (source: string) => ({
    emit(event: ProviderEventInput): void {
      if (collecting) published.push({ source, value: event.payload });
    },
  });
  const provider = createCodexProvider({
    transport: () => transport,
    approvals: 'bridge',
    questions: 'bridge',
    fileChanges: 'bridge',
    toolActivity: 'redacted',
    additionalAppServerVersions: [version],
  });
  const idMap = new Map<unknown, unknown>();
  const runs: Promise<ProviderRun>[] = [];
  const answered = new Set<string>();
  let opening: Promise<ProviderSession> | undefined;
  let session: ProviderSession | undefined;
  let cursor = 0;
  const wrote = (want: Frame): Frame | undefined => {
    for (; cursor < transport.sent.length; cursor++) {
      const got = transport.sent[cursor] as Frame;
      if (isReply(want) ? isReply(got) && got.id === want.id : got.method === want.method) {
        cursor++;
        return got;
      }
    }
    return undefined;
  };
  const settle = (source: string, end: ProviderRunTermination | Refused): void => {
    published.push({ source, value: { type: 'run.end', ...end } });
  };
  try {
    for (const line of lines) {
      const frame = line.frame;
      if (line.dir === 's2c') {
        const restored = restorePlaceholders(frame, PLACEHOLDERS);
        const id = isReply(restored) ? idMap.get(restored.id) : undefined;
        transport.push(id === undefined ? restored : { ...restored, id });
        continue;
      }
      // the host's part of a client frame, then the frame itself from the adapter
      if (frame.method === 'initialize' && opening === undefined) {
        opening = provider.createSession({
          options: {},
          workspace: { root: REPLAY_WORKSPACE, ownership: 'borrowed' },
          sink: sink('session'),
        });
        opening.then(
          (opened) => (session = opened),
          (error: unknown) => {
            published.push({
              source: 'session',
              value: { type: 'session.refused', ...refused(error) },
            });
          },
        );
      } else if (frame.method === 'turn/start') {
        if (opening === undefined) throw new Error('the recording starts a turn before a session');
        await until(() => session !== undefined, 'opened the session');
        // a host starts a run once the one before it has ended
        await until(() => published.filter(isEnd).length === runs.length, 'ended the run before');
        const source = `run ${runs.length + 1}`;
        // the run is admitted by the recorded reply, which is replayed after this frame
        const starting = (session as ProviderSession).startRun({
          input: { parts: [{ type: 'text', text: inputText(frame.params) }] },
          sink: sink(source),
          runRef: `replay-${runs.length + 1}`,
        });
        starting.then(
          (run) =>
            run.completion.then((t) => {
              settle(source, t);
            }),
          (error: unknown) => {
            settle(source, refused(error));
          },
        );
        runs.push(starting);
      } else if (frame.method === 'turn/interrupt') {
        void runs.at(-1)?.then((run) => run.interrupt());
      } else if (isReply(frame)) {
        // an approval the host answers (anything else the adapter answers on its own)
        const replied = (): boolean => transport.sent.some((f) => isReply(f) && f.id === frame.id);
        const pending = () =>
          published
            .map((p) => p.value as { type?: string; providerRef?: string })
            .find((e) => e.type === 'interaction.requested' && !answered.has(e.providerRef ?? ''));
        await until(
          () => replied() || pending() !== undefined,
          `answered request ${String(frame.id)}`,
        );
        const ask = replied() ? undefined : pending();
        if (ask?.providerRef !== undefined && session !== undefined) {
          answered.add(ask.providerRef);
          await session.respondToInteraction(ask.providerRef, answerOf(frame.result));
        }
      }
      const what = isReply(frame) ? `answered server request ${String(frame.id)}` : frame.method;
      let got: Frame | undefined;
      await until(() => (got = wrote(frame)) !== undefined, `wrote ${String(what)}`);
      if (isRequest(frame) && got !== undefined) idMap.set(frame.id, got.id);
    }
    await until(() => published.filter(isEnd).length === runs.length, 'ended a run');
    await until(() => transport.drained(), 'read every recorded frame');
    return { published: [...published] };
  } catch (error) {
    return { published, failure: error instanceof Error ? error.message : 'replay failed' };
  } finally {
    collecting = false;
    await session?.dispose().catch(() => undefined);
    await transport.close();
  }
}

const isEnd = (p: Published): boolean => (p.value as { type?: unknown }).type === 'run.end';
