/**
 * Reads a push transport the way a test wants to: `next()` per frame. Starts the transport with
 * a sink that keeps what it is pushed; the end resolves `done`, a failure rejects once.
 */
import type { CodexTransport } from '../../src/transport/types.js';

export function readFrames(transport: CodexTransport): AsyncIterator<unknown> {
  const frames: unknown[] = [];
  let end: { readonly error: unknown } | undefined;
  let wake: (() => void) | undefined;
  transport.start({
    onFrame(frame) {
      frames.push(frame);
      wake?.();
    },
    onEnd(error) {
      end = { error };
      wake?.();
    },
  });
  return {
    async next() {
      while (frames.length === 0 && end === undefined)
        await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
      if (frames.length > 0) return { done: false, value: frames.shift() };
      const error = end?.error;
      if (error === undefined) return { done: true, value: undefined };
      end = { error: undefined }; // a failure is reported once
      throw error; // eslint-disable-line @typescript-eslint/only-throw-error
    },
  };
}
