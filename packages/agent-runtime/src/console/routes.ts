/**
 * Every route the console answers, as data: method, path, what guards it, the zod schemas of
 * its body and reply, its success status and the refusals it may give besides the common ones.
 * The server dispatches through this table only (server.ts has a handler per key, checked by
 * the compiler), and docs/console.md documents it (a test checks every route is there).
 */
import type { z } from 'zod';
import { interactionResponseSchema } from '@relvo-labs/agent-provider';
import {
  answerReplySchema,
  codeReplySchema,
  eventsReplySchema,
  exchangeBodySchema,
  historyReplySchema,
  inboxReplySchema,
  interruptReplySchema,
  revertReplySchema,
  openSessionBodySchema,
  openedReplySchema,
  poolReplySchema,
  sessionReplySchema,
  sessionsReplySchema,
  tokenReplySchema,
  turnBodySchema,
  turnReplySchema,
} from './schemas.js';

/** `page`: host and origin only; `code`: also a one-time code in the body; `token`: the bearer token. */
export type RouteGuard = 'page' | 'code' | 'token';

export interface RouteSpec {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly guard: RouteGuard;
  readonly body?: z.ZodType;
  /** The JSON reply; absent for the page and the event streams. */
  readonly reply?: z.ZodType;
  /** Server-Sent Events: the names of the events it sends. */
  readonly events?: readonly string[];
  readonly query?: readonly string[];
  readonly status: number;
  /** Refusals of this route beyond the common ones (guard, `not_found`, bad JSON bodies). */
  readonly refusals: readonly string[];
}

const route = <const K extends string>(key: K, spec: RouteSpec) => [key, spec] as const;

const ROUTE_LIST = [
  route('GET /', { method: 'GET', path: '/', guard: 'page', status: 200, refusals: [] }),
  route('GET /favicon.ico', {
    method: 'GET',
    path: '/favicon.ico',
    guard: 'page',
    status: 204,
    refusals: [],
  }),
  route('POST /api/exchange', {
    method: 'POST',
    path: '/api/exchange',
    guard: 'code',
    body: exchangeBodySchema,
    reply: tokenReplySchema,
    status: 200,
    refusals: ['code_invalid', 'code_spent', 'code_expired'],
  }),
  route('POST /api/codes', {
    method: 'POST',
    path: '/api/codes',
    guard: 'token',
    reply: codeReplySchema,
    status: 201,
    refusals: [],
  }),
  route('GET /api/sessions', {
    method: 'GET',
    path: '/api/sessions',
    guard: 'token',
    reply: sessionsReplySchema,
    status: 200,
    refusals: [],
  }),
  route('POST /api/sessions', {
    method: 'POST',
    path: '/api/sessions',
    guard: 'token',
    body: openSessionBodySchema,
    reply: openedReplySchema,
    status: 201,
    refusals: ['opening_disabled', 'unknown_profile'],
  }),
  route('GET /api/inbox', {
    method: 'GET',
    path: '/api/inbox',
    guard: 'token',
    reply: inboxReplySchema,
    status: 200,
    refusals: [],
  }),
  route('GET /api/pool', {
    method: 'GET',
    path: '/api/pool',
    guard: 'token',
    reply: poolReplySchema,
    status: 200,
    refusals: [],
  }),
  route('GET /api/stream', {
    method: 'GET',
    path: '/api/stream',
    guard: 'token',
    query: ['session', 'from'],
    events: ['sessions', 'inbox', 'pool', 'envelope', 'end', 'refused'],
    status: 200,
    refusals: ['query_invalid', 'unknown_session', 'cursor_out_of_range'],
  }),
  route('GET /api/sessions/:id', {
    method: 'GET',
    path: '/api/sessions/:id',
    guard: 'token',
    reply: sessionReplySchema,
    status: 200,
    refusals: ['unknown_session'],
  }),
  route('GET /api/sessions/:id/events', {
    method: 'GET',
    path: '/api/sessions/:id/events',
    guard: 'token',
    query: ['from', 'limit'],
    reply: eventsReplySchema,
    status: 200,
    refusals: ['query_invalid', 'unknown_session'],
  }),
  route('GET /api/sessions/:id/history', {
    method: 'GET',
    path: '/api/sessions/:id/history',
    guard: 'token',
    query: ['cursor', 'limit'],
    reply: historyReplySchema,
    status: 200,
    refusals: [
      'query_invalid',
      'unknown_session',
      'session_elsewhere',
      'session_not_open',
      'history_unsupported',
      'provider_rejected',
      'provider_unknown_outcome',
    ],
  }),
  route('GET /api/sessions/:id/stream', {
    method: 'GET',
    path: '/api/sessions/:id/stream',
    guard: 'token',
    query: ['from'],
    events: ['envelope', 'end', 'refused'],
    status: 200,
    refusals: ['query_invalid', 'unknown_session', 'cursor_out_of_range'],
  }),
  route('POST /api/sessions/:id/turns', {
    method: 'POST',
    path: '/api/sessions/:id/turns',
    guard: 'token',
    body: turnBodySchema,
    reply: turnReplySchema,
    status: 202,
    refusals: ['unknown_session', 'session_busy', 'session_closed', 'session_unowned'],
  }),
  route('POST /api/sessions/:id/interrupt', {
    method: 'POST',
    path: '/api/sessions/:id/interrupt',
    guard: 'token',
    reply: interruptReplySchema,
    status: 202,
    refusals: ['unknown_session', 'no_active_run', 'session_unowned'],
  }),
  route('POST /api/sessions/:id/revert', {
    method: 'POST',
    path: '/api/sessions/:id/revert',
    guard: 'token',
    reply: revertReplySchema,
    status: 202,
    refusals: [
      'unknown_session',
      'session_busy',
      'session_closed',
      'revert_unsupported',
      'session_unowned',
    ],
  }),
  route('POST /api/sessions/:id/interactions/:interactionId', {
    method: 'POST',
    path: '/api/sessions/:id/interactions/:interactionId',
    guard: 'token',
    body: interactionResponseSchema,
    reply: answerReplySchema,
    status: 200,
    refusals: [
      'unknown_session',
      'unknown_interaction',
      'interaction_settled',
      'session_closed',
      'session_unowned',
      'command_outcome_unknown',
    ],
  }),
] as const;

export type RouteKey = (typeof ROUTE_LIST)[number][0];

export const ROUTES: ReadonlyMap<RouteKey, RouteSpec> = new Map(ROUTE_LIST);

/** Refusals any route may give: its guard's, an unknown route, a bad JSON body, a crash. */
export const COMMON_REFUSALS = {
  page: ['host_refused', 'origin_refused'],
  token: ['host_refused', 'origin_refused', 'token_missing', 'token_invalid'],
  body: ['json_required', 'json_invalid', 'body_too_large', 'body_invalid'],
  any: ['not_found', 'internal_error'],
} as const;

const PARAM: Readonly<Record<string, string>> = {
  ':id': '(ses_[A-Za-z0-9_-]{1,120})',
  ':interactionId': '(int_[A-Za-z0-9_-]{1,120})',
};

/** The path as a pattern: each parameter a capture group of its id's shape. */
export function pathPattern(path: string): RegExp {
  const parts = path.split('/').map((part) => PARAM[part] ?? part.replace(/[.]/g, '\\.'));
  return new RegExp(`^${parts.join('/')}$`);
}

const COMPILED = [...ROUTES].map(([key, spec]) => ({ key, spec, pattern: pathPattern(spec.path) }));

/** The route a request names, with its path parameters; undefined when none. */
export function matchRoute(
  method: string,
  pathname: string,
): { key: RouteKey; spec: RouteSpec; params: string[] } | undefined {
  for (const { key, spec, pattern } of COMPILED) {
    if (spec.method !== method) continue;
    const m = pattern.exec(pathname);
    if (m !== null) return { key, spec, params: m.slice(1) };
  }
  return undefined;
}
