/**
 * Whether the model provider's host can be reached at all: a TCP connection and, for https, a
 * TLS handshake (certificate checked against the host) to the base URL's host and port. Nothing is sent over the
 * connection — no request, no credentials — and it is closed at once. Bounded by a timeout.
 */
import { connect as tcpConnect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';

export const REACH_TIMEOUT_MS = 5_000;

/** The API codex's built-in provider calls, by login kind, when no base URL is configured. */
const DEFAULT_BASE_URL = {
  apiKey: 'https://api.openai.com/v1',
  chatgpt: 'https://chatgpt.com/backend-api/codex',
} as const;

export type ReachCheck =
  | { readonly checked: true; readonly url: string; readonly ok: true; readonly ms: number }
  | {
      readonly checked: true;
      readonly url: string;
      readonly ok: false;
      /** Where it failed: the TCP connection, the TLS handshake, or neither within the bound. */
      readonly stage: 'tcp' | 'tls' | 'timeout';
      /** A bounded error token (`ECONNREFUSED`, `ENOTFOUND`, `CERT_HAS_EXPIRED`, …). */
      readonly error: string;
    }
  | { readonly checked: false; readonly skipped: string };

/**
 * The base URL the model requests go to: `OPENAI_BASE_URL` when set, else the built-in
 * provider's for the login kind; undefined when doctor cannot tell (a custom provider).
 */
export function modelBaseUrl(
  env: NodeJS.ProcessEnv,
  authMode: string | null | undefined,
): string | undefined {
  const fromEnv = env.OPENAI_BASE_URL;
  if (fromEnv !== undefined && fromEnv !== '') return fromEnv;
  if (authMode === 'apiKey' || authMode === 'chatgpt') return DEFAULT_BASE_URL[authMode];
  return undefined;
}

function token(error: unknown): string {
  const code: unknown = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[A-Z0-9_]{1,40}$/.test(code) ? code : 'unknown_error';
}

export async function checkReachable(
  url: string,
  timeoutMs = REACH_TIMEOUT_MS,
): Promise<ReachCheck> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { checked: false, skipped: 'the base URL is not a URL' };
  }
  const secure = parsed.protocol === 'https:';
  if (!secure && parsed.protocol !== 'http:') {
    return { checked: false, skipped: `not an http(s) URL (${parsed.protocol})` };
  }
  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = Number(parsed.port || (secure ? 443 : 80));
  // what the report names: the origin only, never a path or query that could carry a secret
  const shown = `${parsed.protocol}//${parsed.host}`;
  const started = performance.now();
  let stage: 'tcp' | 'tls' = 'tcp';
  let socket: Socket | undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(Object.assign(new Error('timeout'), { code: 'TIMEOUT' }));
      }, timeoutMs);
      const done = (error?: unknown): void => {
        clearTimeout(timer);
        if (error === undefined) resolve();
        else reject(error instanceof Error ? error : new Error('connect failed'));
      };
      const tcp = tcpConnect({ host, port });
      socket = tcp;
      tcp.once('error', done);
      tcp.once('connect', () => {
        if (!secure) {
          done();
          return;
        }
        stage = 'tls';
        // SNI only for a name, as a browser does
        // `host`: the certificate is checked against it (Node assumes localhost otherwise)
        const tls = tlsConnect({
          socket: tcp,
          host,
          ...(/^[\d.:]+$/.test(host) ? {} : { servername: host }),
        });
        socket = tls;
        tls.once('error', done);
        tls.once('secureConnect', () => {
          done();
        });
      });
    });
    return { checked: true, url: shown, ok: true, ms: Math.round(performance.now() - started) };
  } catch (error) {
    const code = token(error);
    return {
      checked: true,
      url: shown,
      ok: false,
      stage: code === 'TIMEOUT' ? 'timeout' : stage,
      error: code,
    };
  } finally {
    socket?.destroy();
  }
}
