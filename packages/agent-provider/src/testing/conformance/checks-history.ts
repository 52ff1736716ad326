/**
 * The check for reading a session's past turns (descriptor `session.history`; docs/spi.md §6).
 */
import type { ProviderSession } from '../../interfaces.js';
import { historyPageSchema, type HistoryPage } from '../../schemas/session-ops.js';
import type { CheckContext } from './context.js';
import { fail } from './context.js';
import { needs, type CheckDefinition } from './plan.js';

/** Calls the session's history; only used once the session has one. */
function history(session: ProviderSession, request: object): Promise<unknown> {
  return session.history?.(request) ?? Promise.resolve();
}

async function page(
  ctx: CheckContext,
  session: ProviderSession,
  what: string,
  request: object,
): Promise<HistoryPage> {
  const parsed = historyPageSchema.safeParse(
    ctx.ok(what, await ctx.call(what, () => history(session, request))),
  );
  if (!parsed.success) fail(`${what} resolved with something that is not a history page`);
  return parsed.data;
}

export const historyChecks: readonly CheckDefinition[] = [
  {
    id: 'session.history',
    area: 'session',
    title:
      'history exists exactly when declared; it pages finished turns newest first with a cursor, each a valid page, and refuses a malformed limit',
    applies: (plan) => {
      if (!plan.descriptor.session.history)
        return { applies: false, reason: 'not applicable: history is not declared' };
      return needs(plan, 'complete');
    },
    async run(ctx) {
      const opened = await ctx.openSession();
      const session = opened.session;
      if (typeof session.history !== 'function')
        fail('the descriptor declares history but the session has no history');
      for (const n of [1, 2]) {
        const done = await ctx.startRun(opened, 'complete');
        await ctx.completion(done, `finished run ${String(n)}`);
      }
      const first = await page(ctx, session, 'history (limit 1)', { limit: 1 });
      if (first.turns.length !== 1 || first.nextCursor === undefined)
        fail('history (limit 1) of two finished turns is not one turn and a cursor');
      const second = await page(ctx, session, 'history (the page before)', {
        limit: 1,
        cursor: first.nextCursor,
      });
      if (second.turns.length !== 1) fail('history (the page before) is not the other turn');
      if ([...first.turns, ...second.turns].some((t) => t.outcome !== 'succeeded'))
        fail('a finished run is not listed succeeded');
      ctx.rejection(
        'history (limit 0)',
        await ctx.call('history (limit 0)', () => history(session, { limit: 0 })),
        ['invalid_request'],
      );
    },
  },
];
