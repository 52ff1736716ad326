/** Driving a chaos session's run: what the model is scripted to do and when the failure strikes. */
import {
  isProviderRejection,
  type ProviderEventInput,
  type ProviderRun,
} from '@relvo-labs/agent-provider';
import type { CodexProviderSession } from '../../src/index.js';
import { execCommandStep, scriptedUsage, textStep } from '../../src/testing/index.js';
import { markedProcesses } from '../../bench/support/proc.js';
import { CHAOS_MARKER_VAR, type Setup } from './session-setup.js';

const slowText = (): ReturnType<typeof textStep> =>
  textStep(
    Array.from({ length: 40 }, (_, i) => `tick${i} `),
    { delayMs: 100, usage: scriptedUsage(5, 1, 0, 0) },
  );

export async function until(predicate: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 10));
  }
  return true;
}

export function codeOf(error: unknown): string {
  return isProviderRejection(error) ? error.agentError.code : 'untyped';
}

interface Driven {
  readonly outcome: string;
  readonly typed: boolean;
  readonly run: ProviderRun | undefined;
}

export interface Injector {
  /** Marks the moment the failure happens (settle time is measured from it). */
  readonly mark: () => void;
  /** Marks and signals the app-server leader. */
  readonly inject: (signal: NodeJS.Signals) => void;
}

export async function drive(
  kind: string,
  session: CodexProviderSession,
  setup: Setup,
  { mark, inject }: Injector,
): Promise<Driven> {
  const server = setup.server;
  const runEvents: ProviderEventInput[] = [];
  const sink = { emit: (e: ProviderEventInput) => runEvents.push(e) };
  const has = (type: string): boolean => runEvents.some((e) => e.payload.type === type);
  switch (kind) {
    case 'kill9_leader_at_turn_start':
      server?.enqueue(slowText());
      setup.beforeSend = (m) => {
        if (m.method === 'turn/start') inject('SIGKILL');
      };
      break;
    case 'kill9_leader_mid_stream':
    case 'kill9_leader_during_dispose':
    case 'sigstop_leader_interrupt_dispose':
      server?.enqueue(slowText(), textStep('after'));
      break;
    case 'kill9_leader_pending_approval':
      server?.enqueue(
        execCommandStep('echo chaos', { escalate: true, justification: 'chaos' }),
        textStep('done'),
      );
      break;
    case 'kill9_descendant_command':
      server?.enqueue(
        execCommandStep('sleep 600', { escalate: true, justification: 'chaos' }),
        textStep('after kill', { usage: scriptedUsage(5, 1, 0, 0) }),
      );
      break;
    case 'model_closes_mid_stream':
      server?.enqueue(textStep(['a', 'b', 'c', 'd'], { closeAfterDeltas: 2 }));
      break;
    case 'model_stalls_mid_stream':
      server?.enqueue(textStep(['a', 'b', 'c'], { stallAfterDeltas: 1 }));
      break;
    case 'command_setsid_daemon':
      server?.enqueue(
        execCommandStep('setsid sleep 600 >/dev/null 2>&1 < /dev/null & echo started', {
          escalate: true,
          justification: 'chaos',
        }),
        textStep('ok', { usage: scriptedUsage(5, 1, 0, 0) }),
      );
      break;
    default:
      server?.enqueue(textStep(['Hello', ' chaos'], { usage: scriptedUsage(5, 1, 0, 0) }));
  }
  let run: ProviderRun;
  try {
    run = await session.startRun({
      input: { parts: [{ type: 'text', text: 'chaos' }] },
      sink,
      runRef: 'chaos',
    });
  } catch (error) {
    return { outcome: `start:${codeOf(error)}`, typed: isProviderRejection(error), run: undefined };
  }
  let typed = true;
  const approveAll = async (): Promise<void> => {
    for (const e of runEvents) {
      if (e.payload.type !== 'interaction.requested') continue;
      await session
        .respondToInteraction(e.payload.providerRef, {
          kind: 'approval',
          decision: 'approved',
          mode: 'once',
        })
        .catch((error: unknown) => {
          typed &&= isProviderRejection(error);
        });
    }
  };
  switch (kind) {
    case 'kill9_leader_mid_stream':
      if (await until(() => has('run.message_delta'), 15_000)) inject('SIGKILL');
      break;
    case 'kill9_leader_pending_approval':
      if (await until(() => has('interaction.requested'), 15_000)) inject('SIGKILL');
      break;
    case 'kill9_leader_during_dispose':
      await until(() => has('run.message_delta'), 15_000);
      break;
    case 'kill9_descendant_command': {
      if (await until(() => has('interaction.requested'), 15_000)) await approveAll();
      let sleeper: number | undefined;
      await until(() => {
        sleeper = markedProcesses(CHAOS_MARKER_VAR, setup.marker).find(
          (p) => p.comm === 'sleep',
        )?.pid;
        return sleeper !== undefined;
      }, 15_000);
      if (sleeper !== undefined) {
        process.kill(sleeper, 'SIGKILL');
      }
      break;
    }
    case 'sigstop_leader_interrupt_dispose':
      if (await until(() => has('run.message_delta'), 15_000)) {
        inject('SIGSTOP');
        run.interrupt('chaos').catch((error: unknown) => {
          typed &&= isProviderRejection(error);
        });
      }
      break;
    case 'peer_acks_never_completes':
      await new Promise((r) => setTimeout(r, 100));
      mark();
      run.interrupt('chaos').catch((error: unknown) => {
        typed &&= isProviderRejection(error);
      });
      break;
    case 'command_setsid_daemon':
    case 'busy_shell_snapshot':
      if (await until(() => has('interaction.requested'), 15_000)) await approveAll();
      break;
    default:
      // the model-side failures start counting when the turn starts
      mark();
  }
  return { outcome: 'started', typed, run };
}
