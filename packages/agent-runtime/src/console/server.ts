/**
 * The web console: one HTTP server on 127.0.0.1 serving the page and the JSON API, with each
 * session's envelopes streamed as Server-Sent Events. The token travels in an Authorization
 * header on every API and stream request (the page reads streams with fetch, so it never sits
 * in a URL); the page's address carries a one-time code it trades for the token. The page
 * shell itself holds no data and is guarded by host and origin only. Connections are capped
 * and timed (limits.ts).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { RuntimeError, type AgentRuntime } from '@relvo-labs/agent-runtime';
import { ConsoleApi, refusalOf } from './api.js';
import { DEFAULT_CODE_TTL_MS, OneTimeCodes } from './codes.js';
import { RequestGuard, randomToken, type Refusal } from './guard.js';
import { handlers } from './dispatch.js';
import { COMMON_HEADERS, HttpRefusal, sendJson, sendRefusal } from './http.js';
import {
  applyDefaults,
  capConnections,
  consoleLimitsSchema,
  serverOptions,
  type ConsoleLimits,
} from './limits.js';
import { renderPage } from './page.js';
import { LiveList } from './live-list.js';
import { matchRoute } from './routes.js';
import { SessionBook } from './sessions.js';

/** How often the list streams read the leases again when the log says nothing (ms). */
export const DEFAULT_LIST_RECHECK_MS = 5_000;

export interface ConsoleOptions extends ConsoleLimits {
  readonly runtime: AgentRuntime;
  /** Default 127.0.0.1. */
  readonly host?: string;
  /** Default 0: a free port. */
  readonly port?: number;
  /** Default: 32 random bytes. At least 16 characters. */
  readonly token?: string;
  /** Where sessions opened from the page work; without it the page cannot open sessions. */
  readonly workspace?: string;
  /** How long a page address's one-time code works. Default 60 s. */
  readonly codeTtlMs?: number;
  /**
   * How often the list stream reads the list again though the log did not change: an owner
   * that ends writes nothing, its lease just lapses. Default 5 s.
   */
  readonly listRecheckMs?: number;
  /** The clock codes expire on (ms since the epoch). Default Date.now. */
  readonly now?: () => number;
}

export interface ConsoleServer {
  /** `http://host:port/` */
  readonly url: string;
  readonly token: string;
  /**
   * The page with a one-time code in its fragment (which a browser never sends to a server):
   * the page trades it for the token once, within `codeTtlMs`; after that it is refused.
   */
  readonly pageUrl: string;
  /** A fresh address like `pageUrl`, with a code of its own. */
  newPageUrl(): string;
  /** Requests refused so far, by reason (for tests and the host's own logs). */
  readonly refusals: Readonly<Record<string, number>>;
  /** Sockets held right now, streams included (at most `maxConnections`). */
  openConnections(): Promise<number>;
  /** Ends every stream and stops listening. Idempotent. */
  close(): Promise<void>;
}

export const consoleOptionsSchema = consoleLimitsSchema.extend({
  codeTtlMs: z.number().int().min(1_000).max(3_600_000).optional(),
  host: z.string().min(1).max(253).optional(),
  listRecheckMs: z.number().int().min(50).max(600_000).optional(),
  port: z.number().int().min(0).max(65_535).optional(),
  token: z
    .string()
    .regex(/^[A-Za-z0-9._~+/=-]{16,512}$/)
    .optional(),
  workspace: z.string().min(1).optional(),
});

const REFUSAL_STATUS: Readonly<Record<Refusal, number>> = {
  host_refused: 403,
  origin_refused: 403,
  token_missing: 401,
  token_invalid: 401,
};

/** The options, or `option_invalid` naming each refused key (never its value). */
function checkConsoleOptions(value: object): z.infer<typeof consoleOptionsSchema> {
  const parsed = consoleOptionsSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const keys = parsed.error.issues.flatMap((issue) =>
    issue.code === 'unrecognized_keys' ? issue.keys : [issue.path.join('.')],
  );
  throw new RuntimeError(
    'invalid_request',
    'option_invalid',
    `startConsole options: ${keys.join(', ')} refused`,
    { details: { path: keys[0] ?? '(root)' } },
  );
}

function hostsFor(host: string, port: number): string[] {
  const named = host.includes(':') ? `[${host}]` : host;
  const hosts = [`${named}:${port}`];
  if (host === '127.0.0.1' || host === '::1') hosts.push(`localhost:${port}`);
  return hosts;
}

export async function startConsole(options: ConsoleOptions): Promise<ConsoleServer> {
  const { runtime, now, ...rest } = options;
  const checked = checkConsoleOptions(rest);
  const limits = applyDefaults(checked);
  const codes = new OneTimeCodes(checked.codeTtlMs ?? DEFAULT_CODE_TTL_MS, now ?? Date.now);
  const host = checked.host ?? '127.0.0.1';
  const token = checked.token ?? randomToken();
  const book = new SessionBook(runtime);
  const api = new ConsoleApi(runtime, book, checked.workspace);
  const live = new LiveList(runtime, book, checked.listRecheckMs ?? DEFAULT_LIST_RECHECK_MS);
  const page = renderPage();
  const refusals: Record<string, number> = {};
  const streams = new Set<() => void>();

  const refuse = (res: ServerResponse, status: number, reason: string): void => {
    refusals[reason] = (refusals[reason] ?? 0) + 1;
    sendRefusal(res, status, reason);
  };

  const routes = handlers({ runtime, api, live, codes, token, streams });

  const handle = (guard: RequestGuard, req: IncomingMessage, res: ServerResponse): void => {
    const url = new URL(req.url ?? '/', 'http://console.invalid');
    const found = matchRoute(req.method ?? 'GET', url.pathname);
    // the shell holds no data and the exchange carries a code, not the token: host and origin
    // are checked, the token is the page's to send; an unknown route is guarded as the API is
    const guarded = found?.spec.guard ?? 'token';
    const refused = guarded === 'token' ? guard.check(req.headers) : guard.checkOrigin(req.headers);
    if (refused !== undefined) {
      refuse(res, REFUSAL_STATUS[refused], refused);
      return;
    }
    if (found?.spec.guard === 'page') {
      const icon = found.key === 'GET /favicon.ico';
      res.writeHead(icon ? 204 : 200, { ...COMMON_HEADERS, ...(icon ? {} : page.headers) });
      res.end(icon ? undefined : page.html);
      return;
    }
    const run = async (): Promise<void> => {
      const key = found?.key;
      if (key === undefined || key === 'GET /' || key === 'GET /favicon.ico') {
        throw new HttpRefusal(404, 'not_found');
      }
      const reply = await routes[key]({ req, res, url, params: found?.params ?? [] });
      if (reply !== undefined) sendJson(res, reply.status, reply.body);
    };
    run().catch((error: unknown) => {
      const r = refusalOf(error);
      if (res.headersSent) res.destroy();
      else refuse(res, r.status, r.reason);
    });
  };

  const server: Server = createServer(serverOptions(limits));
  capConnections(server, limits, () => {
    refusals['connection_cap'] = (refusals['connection_cap'] ?? 0) + 1;
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(checked.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const guard = new RequestGuard(hostsFor(host, port), token);
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    handle(guard, req, res);
  });
  const url = `http://${hostsFor(host, port)[0] as string}/`;
  let closing: Promise<void> | undefined;
  const newPageUrl = (): string => `${url}#code=${codes.issue()}`;
  return {
    url,
    token,
    pageUrl: newPageUrl(),
    newPageUrl,
    refusals,
    openConnections() {
      return new Promise((resolve, reject) => {
        server.getConnections((error, count) => {
          if (error === null) resolve(count);
          else reject(error);
        });
      });
    },
    close() {
      closing ??= new Promise<void>((resolve) => {
        for (const end of [...streams]) end();
        server.close(() => {
          resolve();
        });
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
