/**
 * Scenarios of a thread's past and of the login, driven by the client between turns: the
 * thread's turns read page by page (`thread/turns/list`, cursor paged, newest first), the last
 * turn taken back (`thread/revert` before it), and an API-key login and logout with the account
 * read after each (`account/login/start`, `account/logout`, `account/read`). The thread is
 * persisted (`ephemeral: false`): an ephemeral thread has no list and no revert.
 */
import { textStep } from '../../src/testing/index.js';
import type { AppServerDriver } from './app-server-driver.js';
import type { Scenario } from './scenario-types.js';

/** A fake key: codex stores it and checks nothing; nothing reaches a model with it. */
const FAKE_API_KEY = 'sk-relvo-recording-not-a-key';

async function call(driver: AppServerDriver, method: string, params: unknown): Promise<unknown> {
  const reply = await driver.request(method, params, 10_000);
  if (!('result' in reply)) throw new Error(`${method} failed`);
  return reply['result'];
}

function listTurns(threadId: string, limit: number, cursor?: string) {
  return {
    threadId,
    limit,
    sortDirection: 'desc',
    itemsView: 'summary',
    ...(cursor === undefined ? {} : { cursor }),
  };
}

/** Every page of one turn, newest first, down to the oldest. */
async function readHistory(driver: AppServerDriver, threadId: string): Promise<void> {
  let cursor: string | undefined;
  for (let pages = 0; pages < 5; pages++) {
    const page = (await call(driver, 'thread/turns/list', listTurns(threadId, 1, cursor))) as {
      nextCursor?: unknown;
    };
    if (typeof page.nextCursor !== 'string') return;
    cursor = page.nextCursor;
  }
  throw new Error('thread/turns/list never reached the oldest page');
}

/** The last turn taken back: the newest turn's id is the one to revert before. */
async function revertLast(driver: AppServerDriver, threadId: string): Promise<void> {
  const listed = (await call(driver, 'thread/turns/list', {
    ...listTurns(threadId, 2),
    itemsView: 'notLoaded',
  })) as { data?: { id?: unknown }[] };
  const last = listed.data?.[0]?.id;
  if (typeof last !== 'string') throw new Error('no turn to revert');
  await call(driver, 'thread/revert', { threadId, beforeTurnId: last });
}

async function loginAndOut(driver: AppServerDriver): Promise<void> {
  await call(driver, 'account/login/start', { type: 'apiKey', apiKey: FAKE_API_KEY });
  await call(driver, 'account/read', { refreshToken: false });
  await call(driver, 'account/logout', undefined);
  await call(driver, 'account/read', { refreshToken: false });
}

const twoTurns = [
  textStep(['Noted KIWI.'], { itemId: 'msg_1', responseId: 'resp_1' }),
  textStep(['Noted MANGO.'], { itemId: 'msg_2', responseId: 'resp_2' }),
  textStep(['third'], { itemId: 'msg_3', responseId: 'resp_3' }),
];

/** Two turns on a persisted thread, then `before` the third. */
function pastScenario(
  name: string,
  summary: string,
  before: (driver: AppServerDriver, threadId: string) => Promise<void>,
): Scenario {
  return {
    name,
    summary,
    approvalPolicy: 'never',
    sandbox: 'read-only',
    ephemeral: false,
    steps: twoTurns,
    turns: [{ text: 'remember KIWI' }, { text: 'remember MANGO' }, { text: 'third', before }],
  };
}

export const THREAD_SCENARIOS: readonly Scenario[] = [
  pastScenario(
    'thread_history',
    'two turns on a persisted thread, then thread/turns/list one turn a page, newest first, down to the oldest; then a third turn',
    readHistory,
  ),
  pastScenario(
    'thread_revert',
    'two turns on a persisted thread, then thread/revert before the last one; the third turn’s request no longer carries it',
    revertLast,
  ),
  {
    name: 'account_login',
    summary:
      'account/login/start with a fake API key, account/read, account/logout, account/read; then a turn',
    approvalPolicy: 'never',
    sandbox: 'read-only',
    steps: [textStep(['hello'], { itemId: 'msg_1', responseId: 'resp_1' })],
    turns: [{ text: 'hi', before: (driver) => loginAndOut(driver) }],
  },
];
