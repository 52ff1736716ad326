/**
 * One planned turn of a recording: `turn/start`, the steer or interrupt its plan asks for, and
 * its timings once `turn/completed` arrives; plus the frame helpers the recorder shares. Apart
 * from `recorder.ts`, which owns a scenario's processes (start, resume, fork) and teardown.
 */
import type { AppServerDriver, DriverFrame, Frame } from './app-server-driver.js';
import type { TurnPlan } from './scenario-types.js';

export interface TurnTimings {
  readonly turnStartSent: number;
  readonly turnStartReply: number;
  readonly turnStarted: number | null;
  readonly firstDelta: number | null;
  readonly turnCompleted: number;
  readonly turnStatus: string;
}

export const isMethod = (f: DriverFrame, method: string): boolean =>
  f.dir === 's2c' && f.frame.method === method;
const paramsOf = (f: Frame): Record<string, unknown> =>
  typeof f.params === 'object' && f.params !== null ? (f.params as Record<string, unknown>) : {};
export const round = (ms: number): number => Math.max(0, Math.round(ms));

export function turnIdFrom(frame: Frame): string | undefined {
  const turn = paramsOf(frame).turn ?? (frame.result as { turn?: unknown } | undefined)?.turn;
  const id = (turn as { id?: unknown } | undefined)?.id;
  return typeof id === 'string' ? id : undefined;
}

/** One `turn/start` of a plan (with its steer or interrupt), awaited to `turn/completed`. */
export async function runTurn(
  driver: AppServerDriver,
  threadId: string,
  plan: TurnPlan,
  timeoutMs: number,
  workspace: string,
): Promise<TurnTimings> {
  await plan.before?.(driver, threadId);
  const from = driver.frames.length;
  const turnStartSent = driver.now();
  const input = plan.input?.map((item) =>
    Object.fromEntries(
      Object.entries(item).map(([k, v]) => [
        k,
        typeof v === 'string' ? v.split('<workspace>').join(workspace) : v,
      ]),
    ),
  ) ?? [{ type: 'text', text: plan.text }];
  const reply = driver
    .request('turn/start', { threadId, input, ...plan.params }, timeoutMs)
    .then(() => driver.now());
  if (plan.steer !== undefined) {
    await driver.waitFor((f) => isMethod(f, 'item/agentMessage/delta'), {
      timeoutMs,
      label: 'a first agentMessage delta',
      from,
    });
    const started = await driver.waitFor((f) => isMethod(f, 'turn/started'), {
      timeoutMs,
      label: 'turn/started',
      from,
    });
    await driver.request(
      'turn/steer',
      {
        threadId,
        expectedTurnId: turnIdFrom(started.frame),
        input: [{ type: 'text', text: plan.steer }],
      },
      timeoutMs,
    );
  }
  if (plan.interruptAfterDeltas !== undefined) {
    let deltas = 0;
    const target = plan.interruptAfterDeltas;
    await driver.waitFor((f) => isMethod(f, 'item/agentMessage/delta') && ++deltas >= target, {
      timeoutMs,
      label: `${target} agentMessage deltas`,
      from,
    });
    const started = await driver.waitFor((f) => isMethod(f, 'turn/started'), {
      timeoutMs,
      label: 'turn/started',
      from,
    });
    const turnId = turnIdFrom(started.frame);
    await driver.request('turn/interrupt', { threadId, turnId }, timeoutMs);
  }
  const completed = await driver.waitFor((f) => isMethod(f, 'turn/completed'), {
    timeoutMs,
    label: 'turn/completed',
    from,
  });
  const turnStartReply = await reply;
  const after = driver.frames.slice(from);
  const turnStarted = after.find((f) => isMethod(f, 'turn/started'))?.t ?? null;
  const firstDelta = after.find((f) => isMethod(f, 'item/agentMessage/delta'))?.t ?? null;
  const status = (paramsOf(completed.frame).turn as { status?: unknown } | undefined)?.status;
  return {
    turnStartSent: round(turnStartSent),
    turnStartReply: round(turnStartReply),
    turnStarted: turnStarted === null ? null : round(turnStarted),
    firstDelta: firstDelta === null ? null : round(firstDelta),
    turnCompleted: round(completed.t),
    turnStatus: typeof status === 'string' ? status : 'unknown',
  };
}
