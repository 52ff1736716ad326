/**
 * The adapter from a host's async-iterable transport to the push seam: one `for await` reads
 * `incoming` and calls the sink; a synchronous `send` becomes a settled promise.
 */
import { CodexTransportError } from '../shared/codex-error.js';
import type {
  AnyCodexTransport,
  CodexFrameSink,
  CodexIterableTransport,
  CodexTransport,
} from './types.js';

const ACCEPTED = Promise.resolve();

function isIterable(transport: AnyCodexTransport): transport is CodexIterableTransport {
  return typeof (transport as Partial<CodexTransport>).start !== 'function';
}

async function pump(incoming: AsyncIterable<unknown>, sink: CodexFrameSink): Promise<void> {
  try {
    for await (const frame of incoming) sink.onFrame(frame);
  } catch (err) {
    // passed as thrown (the client reduces it to a token); only `undefined` would read as EOF
    sink.onEnd(err ?? new Error('transport failed'));
    return;
  }
  sink.onEnd();
}

/**
 * A push transport over a host's iterable one (start, send, close: the connection asks the
 * host's own object for keep-alive and usage); a push transport is returned as it is.
 */
export function fromIterableTransport(transport: AnyCodexTransport): CodexTransport {
  if (!isIterable(transport)) return transport;
  const host = transport;
  let started = false;
  return {
    start(sink) {
      if (started) throw new Error('codex transport already started');
      started = true;
      void pump(host.incoming, sink);
    },
    send(message) {
      let written: unknown;
      try {
        written = host.send(message);
      } catch {
        written = false; // a host transport that broke the never-throws contract wrote nothing
      }
      return written === false
        ? Promise.reject(new CodexTransportError('write_refused'))
        : ACCEPTED;
    },
    close: () => host.close(),
  };
}
