/**
 * Soak: many turns on ONE real session with the scripted model — text turns, approved and
 * denied commands, interrupts — sampling the adapter's heap, this process's open file
 * descriptors and the app-server group's RSS every tenth of the run. `npm test` runs 20 turns;
 * `npm run test:soak` runs 1,000 (SOAK_TURNS; SOAK_REPORT=<file> keeps the Markdown table).
 */
import { readdirSync, writeFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { ProviderEventInput, ProviderRunTermination } from '@relvo-labs/agent-provider';
import { describe, expect, it } from 'vitest';
import { execCommandStep, scriptedUsage, textStep } from '../../src/testing/index.js';
import { textInput } from '../support/provider-harness.js';
import { openRealCodex } from '../support/real-codex.js';

const TURNS = Number(process.env.SOAK_TURNS ?? '20');
const EVERY = Math.max(1, Math.round(TURNS / 10));

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

interface Sample {
  readonly turn: number;
  readonly heapMb: number;
  readonly fds: number;
  readonly groupRssMb: number;
  readonly groupProcesses: number;
}

type Kind = 'text' | 'approved' | 'denied' | 'interrupted';

/** Ten-turn cycle: 6 text, 2 approved commands, 1 denied command, 1 interrupt. */
function kindOf(turn: number): Kind {
  const k = turn % 10;
  if (k === 3 || k === 7) return 'approved';
  if (k === 5) return 'denied';
  if (k === 8) return 'interrupted';
  return 'text';
}

describe('soak on one real session', () => {
  it(
    `${TURNS} turns with approvals and interrupts: every turn settles as scripted, nothing grows`,
    async () => {
      const codex = await openRealCodex({ approvals: 'bridge' });
      const samples: Sample[] = [];
      const sample = async (turn: number): Promise<void> => {
        gc();
        const usage = await codex.session.resourceUsage();
        samples.push({
          turn,
          heapMb: process.memoryUsage().heapUsed / 1048576,
          fds: readdirSync('/proc/self/fd').length,
          groupRssMb: (usage?.rssBytes ?? 0) / 1048576,
          groupProcesses: usage?.processes ?? 0,
        });
      };
      const outcomes = new Map<string, number>();
      await sample(0);
      for (let turn = 0; turn < TURNS; turn++) {
        const kind = kindOf(turn);
        if (kind === 'text') {
          codex.server.enqueue(
            textStep(['soak ', `${turn}`], { usage: scriptedUsage(50, 2, 0, 0) }),
          );
        } else if (kind === 'interrupted') {
          codex.server.enqueue(
            textStep(
              Array.from({ length: 30 }, (_, i) => `t${i} `),
              { delayMs: 50 },
            ),
          );
        } else {
          codex.server.enqueue(
            execCommandStep(`echo soak-${turn}`, { escalate: true, justification: 'soak' }),
            textStep('done', { usage: scriptedUsage(50, 1, 0, 0) }),
          );
        }
        const events: ProviderEventInput[] = [];
        let onEvent: ((e: ProviderEventInput) => void) | undefined;
        const run = await codex.session.startRun({
          input: textInput(`turn ${turn}`),
          sink: {
            emit(e) {
              events.push(e);
              onEvent?.(e);
            },
          },
          runRef: `soak-${turn}`,
        });
        if (kind === 'interrupted') {
          onEvent = (e) => {
            if (e.payload.type === 'run.message_delta') {
              onEvent = undefined;
              void run.interrupt('soak');
            }
          };
        } else if (kind !== 'text') {
          onEvent = (e) => {
            if (e.payload.type !== 'interaction.requested') return;
            void codex.session.respondToInteraction(
              e.payload.providerRef,
              kind === 'approved'
                ? { kind: 'approval', decision: 'approved', mode: 'once' }
                : { kind: 'approval', decision: 'denied' },
            );
          };
        }
        const end: ProviderRunTermination = await run.completion;
        const key = `${kind}→${end.outcome}`;
        outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
        expect(end.outcome, `turn ${turn} (${kind})`).toBe(
          kind === 'interrupted' ? 'interrupted' : 'succeeded',
        );
        if (kind !== 'text' && kind !== 'interrupted') {
          expect(events.some((e) => e.payload.type === 'interaction.requested')).toBe(true);
        }
        // the scripted model server keeps every request body (each carries the whole history) in
        // this process: drop them so the heap samples weigh the adapter, not the test's model
        codex.server.requests.splice(0);
        if ((turn + 1) % EVERY === 0) await sample(turn + 1);
      }

      const table = [
        `${TURNS} turns on one session: ${[...outcomes].map(([k, n]) => `${k} ×${n}`).join(', ')}`,
        '',
        '| after turn | adapter heap MB | open fds | app-server group RSS MB | group processes |',
        '| --- | --- | --- | --- | --- |',
        ...samples.map(
          (s) =>
            `| ${s.turn} | ${s.heapMb.toFixed(1)} | ${s.fds} | ${s.groupRssMb.toFixed(1)} | ${s.groupProcesses} |`,
        ),
      ].join('\n');
      console.log(table);
      if (process.env.SOAK_REPORT !== undefined)
        writeFileSync(process.env.SOAK_REPORT, `${table}\n`);

      // leak guards (sizes, not timings): descriptors flat, heap bounded, the group still there
      const first = samples[0]!;
      const last = samples.at(-1)!;
      expect(last.fds).toBeLessThanOrEqual(first.fds + 4);
      expect(last.heapMb).toBeLessThan(first.heapMb + 48);
      expect(last.groupProcesses).toBeGreaterThan(0);
      expect([...outcomes.values()].reduce((a, b) => a + b, 0)).toBe(TURNS);
    },
    4 * 3_600_000,
  );
});
