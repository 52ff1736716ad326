/** Handshake timings of one binary: medians of N sequential runs of the handshake scenario. */
import { recordScenario } from '../recorder.js';
import { findScenario } from '../scenarios.js';

export interface HandshakeTimings {
  readonly runs: number;
  /** ms from spawn to the initialize reply. */
  readonly initializeReplyMs: number;
  /** ms from spawn to the thread/start reply. */
  readonly threadStartReplyMs: number;
  /** ms from closing stdin to the process exit. */
  readonly exitAfterStdinCloseMs: number;
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] ?? 0)
    : Math.round(((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2);
};

export async function measureHandshake(binary: string, runs = 5): Promise<HandshakeTimings> {
  const scenario = { ...findScenario('handshake'), settleMs: 0 };
  const init: number[] = [];
  const thread: number[] = [];
  const exit: number[] = [];
  for (let i = 0; i < runs; i++) {
    const rec = await recordScenario(scenario, { binary });
    init.push(rec.timings.initReply);
    thread.push(rec.timings.threadStartReply);
    exit.push(rec.timings.exit - rec.timings.stdinClosed);
  }
  return {
    runs,
    initializeReplyMs: median(init),
    threadStartReplyMs: median(thread),
    exitAfterStdinCloseMs: median(exit),
  };
}
