/**
 * A transport with no process behind it: a replaying peer answers the adapter's requests with
 * frames recorded from the real binary, serialised to JSONL bytes and fed through the same
 * ChunkDecoder → sink path the stdio transport uses, 64 KiB per macrotask like a pipe.
 * So everything from the decoder to the sink is the production code path.
 */
import { ChunkDecoder } from '../../src/jsonl/chunk-decoder.js';
import type { CodexFrameSink, CodexTransport } from '../../src/transport/types.js';
import { loadRecorded, restorePlaceholders } from './recorded.js';

export const BENCH_WORKSPACE = '/bench/workspace';
const CHUNK = 64 * 1024;
const ACCEPTED = Promise.resolve();

type Frame = Record<string, unknown>;

/** The recorded handshake and one recorded text turn, ready to re-address. */
export interface RecordedSession {
  readonly initializeResult: unknown;
  /** Unprompted notifications sent right after the initialize reply. */
  readonly afterInitialize: readonly Frame[];
  readonly threadStartResult: unknown;
  readonly afterThreadStart: readonly Frame[];
  readonly threadId: string;
  readonly turnId: string;
  readonly turnStartResult: unknown;
  /** Every s2c notification of the turn, recorded order, without the turn/start reply. */
  readonly turnFrames: readonly Frame[];
}

export function recordedSession(): RecordedSession {
  const lines = loadRecorded('text_turn').map((l) => ({
    ...l,
    frame: restorePlaceholders(l.frame, BENCH_WORKSPACE) as Frame,
  }));
  const c2s = (method: string): number => {
    const line = lines.find((l) => l.dir === 'c2s' && l.frame.method === method);
    if (line === undefined) throw new Error(`bench: text_turn has no ${method}`);
    return line.frame.id as number;
  };
  const reply = (id: number): Frame => {
    const line = lines.find((l) => l.dir === 's2c' && l.frame.id === id && !('method' in l.frame));
    if (line === undefined) throw new Error(`bench: text_turn has no reply ${id}`);
    return line.frame;
  };
  const seqOf = (f: Frame): number => lines.find((l) => l.frame === f)!.seq;
  const initReply = reply(c2s('initialize'));
  const threadReply = reply(c2s('thread/start'));
  const turnReply = reply(c2s('turn/start'));
  const notifications = (from: number, to: number): Frame[] =>
    lines
      .filter((l) => l.dir === 's2c' && 'method' in l.frame && l.seq > from && l.seq < to)
      .map((l) => l.frame);
  const turnStartSeq = lines.find((l) => l.frame.method === 'turn/start')!.seq;
  const thread = (threadReply.result as { thread: { id: string } }).thread;
  const turn = (turnReply.result as { turn: { id: string } }).turn;
  return {
    initializeResult: initReply.result,
    afterInitialize: notifications(seqOf(initReply), seqOf(threadReply)).filter(
      (f) => f.method !== 'thread/started' && f.method !== 'remoteControl/status/changed',
    ),
    threadStartResult: threadReply.result,
    afterThreadStart: notifications(seqOf(initReply), turnStartSeq).filter(
      (f) => f.method === 'thread/started' || f.method === 'remoteControl/status/changed',
    ),
    threadId: thread.id,
    turnId: turn.id,
    turnStartResult: turnReply.result,
    turnFrames: notifications(turnStartSeq, Number.POSITIVE_INFINITY),
  };
}

/**
 * The bytes of one turn: the turn/start reply (its id filled in at send time) and the recorded
 * notifications with the agent-message delta repeated `deltas` times, under a fresh turn id.
 */
export interface TurnBytes {
  readonly turnId: string;
  readonly reply: (id: unknown) => Buffer;
  readonly body: Buffer;
  /** Frames in reply + body. */
  readonly frames: number;
}

export function turnBytes(rec: RecordedSession, turnId: string, deltas: number): TurnBytes {
  const swap = (f: Frame): Frame =>
    JSON.parse(JSON.stringify(f).split(rec.turnId).join(turnId)) as Frame;
  const lines: string[] = [];
  for (const f of rec.turnFrames) {
    if (f.method === 'item/agentMessage/delta') {
      if (lines.some((l) => l.includes('"item/agentMessage/delta"'))) continue;
      const line = JSON.stringify(swap(f));
      for (let i = 0; i < deltas; i++) lines.push(line);
    } else lines.push(JSON.stringify(swap(f)));
  }
  const result = swap({ r: rec.turnStartResult }).r;
  return {
    turnId,
    reply: (id) => Buffer.from(`${JSON.stringify({ id, result })}\n`),
    body: Buffer.from(`${lines.join('\n')}\n`),
    frames: lines.length + 1,
  };
}

export interface ReplayTransport extends CodexTransport {
  /** Frames fed to the decoder so far. */
  readonly fed: number;
}

export interface ReplayPeerOptions {
  readonly session: RecordedSession;
  /** Bytes to answer each turn/start with, in order; when exhausted the last is reused. */
  readonly turns?: readonly TurnBytes[];
}

/** A transport whose peer replays the recorded handshake and the scripted turns. */
export function replayTransport(options: ReplayPeerOptions): ReplayTransport {
  const rec = options.session;
  let sink: CodexFrameSink | undefined;
  const decoder = new ChunkDecoder({
    onFrame: (v) => {
      sink?.onFrame(v);
    },
  });
  let fed = 0;
  let turnIndex = 0;
  let closed = false;

  const feed = (bytes: Buffer, frames: number): void => {
    fed += frames;
    for (let i = 0; i < bytes.length; i += CHUNK) {
      const chunk = bytes.subarray(i, i + CHUNK);
      setImmediate(() => {
        if (!closed) decoder.write(chunk);
      });
    }
  };
  const frameBytes = (frames: readonly unknown[]): Buffer =>
    Buffer.from(frames.map((f) => `${JSON.stringify(f)}\n`).join(''));

  /** What the recorded peer writes back for one frame of the adapter's. */
  const answer = (m: { id?: unknown; method?: unknown }): void => {
    switch (m.method) {
      case 'initialize':
        feed(
          frameBytes([{ id: m.id, result: rec.initializeResult }, ...rec.afterInitialize]),
          1 + rec.afterInitialize.length,
        );
        return;
      case 'thread/start':
        feed(
          frameBytes([{ id: m.id, result: rec.threadStartResult }, ...rec.afterThreadStart]),
          1 + rec.afterThreadStart.length,
        );
        return;
      case 'turn/start': {
        const turns = options.turns ?? [];
        const turn = turns[Math.min(turnIndex, turns.length - 1)];
        turnIndex += 1;
        if (turn === undefined) throw new Error('bench: no turn scripted');
        // the reply, then the pre-built body: the peer copies nothing per turn
        feed(turn.reply(m.id), 1);
        feed(turn.body, turn.frames - 1);
        return;
      }
      default:
        if (m.id !== undefined && typeof m.method === 'string')
          feed(frameBytes([{ id: m.id, result: {} }]), 1);
    }
  };

  return {
    get fed() {
      return fed;
    },
    start(next) {
      sink = next;
    },
    send(message) {
      if (closed) return Promise.reject(new Error('replay transport closed'));
      answer(message as { id?: unknown; method?: unknown });
      return ACCEPTED;
    },
    close() {
      if (!closed) {
        closed = true;
        decoder.end();
        sink?.onEnd();
      }
      return Promise.resolve();
    },
  };
}
