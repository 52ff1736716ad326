/**
 * A handler for each route of routes.ts (the compiler checks none is missing): each reads
 * what its route takes — path parameters, query, a bounded JSON body — and returns the reply,
 * or writes a stream itself and returns nothing. The page's own routes are served by server.ts.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { historyRequestSchema } from '@relvo-labs/agent-provider';
import type { AgentRuntime } from '@relvo-labs/agent-runtime';
import type { ApiReply, ConsoleApi } from './api.js';
import type { OneTimeCodes } from './codes.js';
import { HttpRefusal, readJsonBody } from './http.js';
import type { LiveList } from './live-list.js';
import { streamLive } from './live-stream.js';
import type { RouteKey } from './routes.js';
import { exchangeBodySchema } from './schemas.js';
import { streamSession } from './stream.js';

export interface Request {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly url: URL;
  /** The path's parameters, in order. */
  readonly params: readonly string[];
}

export type Handler = (r: Request) => Promise<ApiReply | undefined>;

export interface Parts {
  readonly runtime: AgentRuntime;
  readonly api: ConsoleApi;
  readonly live: LiveList;
  readonly codes: OneTimeCodes;
  readonly token: string;
  readonly streams: Set<() => void>;
}

const SESSION_ID = /^ses_[A-Za-z0-9_-]{1,120}$/;
const MAX_SEQUENCE = 2 ** 52;

function positive(value: string | null, fallback: number, max: number): number {
  if (value === null) return fallback;
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 1 || n > max) throw new HttpRefusal(400, 'query_invalid');
  return n;
}

/** Where a stream starts: `?from=`, else the sequence after a reconnecting reader's Last-Event-ID. */
function streamFrom(r: Request): number {
  const last = r.req.headers['last-event-id'];
  const resume = typeof last === 'string' ? String(positive(last, 1, MAX_SEQUENCE) + 1) : null;
  return positive(r.url.searchParams.get('from') ?? resume, 1, MAX_SEQUENCE);
}

const param = (r: Request, i: number): string => r.params[i] as string;

type PageRoutes = 'GET /' | 'GET /favicon.ico';

export function handlers(p: Parts): Record<Exclude<RouteKey, PageRoutes>, Handler> {
  return {
    'POST /api/exchange': async ({ req }) => {
      // a code from the page's address, traded once for the token
      const parsed = exchangeBodySchema.safeParse(await readJsonBody(req));
      const refused = parsed.success ? p.codes.redeem(parsed.data.code) : 'code_invalid';
      if (refused !== undefined) throw new HttpRefusal(401, refused);
      return { status: 200, body: { token: p.token } };
    },
    'POST /api/codes': () => Promise.resolve({ status: 201, body: { code: p.codes.issue() } }),
    'GET /api/sessions': () => p.api.sessions(),
    'POST /api/sessions': async ({ req }) => p.api.openSession(await readJsonBody(req)),
    'GET /api/inbox': () => p.api.inbox(),
    'GET /api/pool': () => Promise.resolve({ status: 200, body: p.runtime.warmPool() }),
    'GET /api/stream': async (r) => {
      const followed = r.url.searchParams.get('session');
      if (followed !== null && !SESSION_ID.test(followed)) {
        throw new HttpRefusal(400, 'query_invalid');
      }
      const request = {
        from: streamFrom(r),
        ...(followed === null ? {} : { sessionId: followed }),
      };
      await streamLive(p.runtime, p.live, request, r.res, p.streams);
      return undefined;
    },
    'GET /api/sessions/:id': (r) => p.api.session(param(r, 0)),
    'GET /api/sessions/:id/events': (r) => {
      const q = r.url.searchParams;
      const from = positive(q.get('from'), 1, Number.MAX_SAFE_INTEGER);
      return p.api.events(param(r, 0), from, positive(q.get('limit'), 1000, 1000));
    },
    'GET /api/sessions/:id/history': (r) => {
      const cursor = r.url.searchParams.get('cursor');
      const limit = r.url.searchParams.get('limit');
      const query = historyRequestSchema.safeParse({
        ...(cursor === null ? {} : { cursor }),
        ...(limit === null ? {} : { limit: Number(limit) }),
      });
      if (!query.success) throw new HttpRefusal(400, 'query_invalid');
      return p.api.history(param(r, 0), query.data);
    },
    'GET /api/sessions/:id/stream': async (r) => {
      await streamSession(p.runtime, param(r, 0), streamFrom(r), r.res, p.streams);
      return undefined;
    },
    'POST /api/sessions/:id/turns': async (r) =>
      p.api.submitTurn(param(r, 0), await readJsonBody(r.req)),
    'POST /api/sessions/:id/interrupt': (r) => p.api.interrupt(param(r, 0)),
    'POST /api/sessions/:id/revert': (r) => p.api.revert(param(r, 0)),
    'POST /api/sessions/:id/interactions/:interactionId': async (r) =>
      p.api.answer(param(r, 0), param(r, 1), await readJsonBody(r.req)),
  };
}
