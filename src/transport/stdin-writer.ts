/**
 * Writes frames to codex's stdin with backpressure: a frame is written at once while the pipe
 * accepts; when `write()` says the pipe is full, this frame's promise and every later frame wait
 * for 'drain' (in order), within a deadline, and reject typed when the pipe closes first.
 */
import type { Writable } from 'node:stream';
import { CodexTransportError } from '../shared/codex-error.js';
import { unrefClock, type TimerClock } from '../shared/unref-clock.js';

const ACCEPTED = Promise.resolve();

export interface StdinWriterOptions {
  /** Whether the transport still writes (not closing, process not gone). */
  readonly open: () => boolean;
  /** How long a full pipe may take to drain before the frame waiting on it is failed. */
  readonly drainTimeoutMs: number;
  readonly clock?: TimerClock;
}

function refused(): Promise<void> {
  return Promise.reject(new CodexTransportError('write_refused'));
}

/** The transport's `send` over `stdin`. */
export function createStdinWriter(
  stdin: Writable,
  options: StdinWriterOptions,
): (message: unknown) => Promise<void> {
  const clock = options.clock ?? unrefClock;
  /** The last frame still waiting for the pipe; later frames queue behind it. */
  let tail: Promise<void> | undefined;

  const drained = (): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      const done = (error?: CodexTransportError): void => {
        clock.clearTimeout(timer);
        stdin.off('drain', onDrain);
        stdin.off('close', onClose);
        stdin.off('error', onClose);
        if (error === undefined) resolve();
        else reject(error);
      };
      const onDrain = (): void => {
        done();
      };
      const onClose = (): void => {
        done(new CodexTransportError('write_interrupted'));
      };
      const timer = clock.setTimeout(() => {
        done(new CodexTransportError('write_timeout'));
      }, options.drainTimeoutMs);
      stdin.on('drain', onDrain);
      stdin.on('close', onClose);
      stdin.on('error', onClose);
    });

  /** Writes one line; undefined when the pipe took it, else the wait for it to drain. */
  const write = (line: string): Promise<void> | undefined => {
    if (!options.open() || !stdin.writable) throw new CodexTransportError('write_interrupted');
    return stdin.write(line) ? undefined : drained();
  };

  const track = (waiting: Promise<void>): Promise<void> => {
    tail = waiting;
    const clear = (): void => {
      if (tail === waiting) tail = undefined;
    };
    waiting.then(clear, clear);
    return waiting;
  };

  return (message) => {
    if (!options.open() || !stdin.writable) return refused();
    let line: unknown;
    try {
      line = JSON.stringify(message);
    } catch {
      return refused(); // unserialisable (a cycle, a BigInt, a string too long to build)
    }
    if (typeof line !== 'string') return refused(); // undefined, a function: nothing to send
    const framed = `${line}\n`;
    if (tail !== undefined) return track(tail.then(() => write(framed)));
    let waiting: Promise<void> | undefined;
    try {
      waiting = write(framed);
    } catch {
      return refused();
    }
    return waiting === undefined ? ACCEPTED : track(waiting);
  };
}
