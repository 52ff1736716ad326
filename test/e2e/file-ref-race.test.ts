/**
 * File references against the real binary under attack from inside the workspace (ADR-0017):
 * a reference swapped for a symlink between the check and the read, and references that are
 * not regular files. What the scripted model received is the evidence.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { isProviderRejection, type TurnInput } from '@relvo-labs/agent-provider';
import { describe, expect, it } from 'vitest';
import { textStep } from '../../src/testing/index.js';
import { firstPixel, solidPng } from '../support/png.js';
import { openRealCodex, recordingSink, type RealCodex } from '../support/real-codex.js';
import * as turns from '../support/turns.js';
import { startSwapper } from '../support/swapper.js';

const INSIDE = solidPng(0, 128, 0);
const OUTSIDE = solidPng(255, 0, 0);
/** Bounded: stop after this many turns reached the model, or after this many attempts. */
const SENT_TURNS = 12;
const MAX_ATTEMPTS = 400;

/** Every image URL in every request the model received. */
function imageUrls(codex: RealCodex): string[] {
  const text = JSON.stringify(codex.server.requests.map((r) => r.body));
  return [...text.matchAll(/"image_url":"([^"]*)"/g)].map((m) => m[1] ?? '');
}

let stepQueued = false;

async function attempt(codex: RealCodex, input: TurnInput, runRef: string) {
  const before = codex.server.requests.length;
  // scripted before the turn can start; a refused attempt leaves it for the next one
  if (!stepQueued) codex.server.enqueue(textStep('seen'));
  stepQueued = true;
  const started = await codex.session.startRun({ input, sink: recordingSink(), runRef }).then(
    (run) => run,
    (e: unknown) => e,
  );
  if (isProviderRejection(started)) return started.agentError.providerCode;
  if (typeof started !== 'object' || started === null || !('completion' in started))
    throw new Error('expected a run or a ProviderRejection');
  stepQueued = false;
  await codex.server.waitForRequests(before + 1, 15_000);
  await (started as { completion: Promise<unknown> }).completion;
  return 'sent';
}

describe('file references raced and misnamed, against the real binary', () => {
  it('an image swapped for a symlink (file or parent directory) never brings outside bytes to the model', async () => {
    const codex = await openRealCodex({ fileReferences: 'resolve' });
    stepQueued = false;
    const outside = join(dirname(codex.iso.workspace), 'outside-images');
    const swapper = startSwapper(codex.iso.workspace, outside, INSIDE, OUTSIDE);
    const outcomes = new Map<string, number>();
    try {
      for (let i = 0; i < MAX_ATTEMPTS && (outcomes.get('sent') ?? 0) < SENT_TURNS; i += 1) {
        const input: TurnInput = {
          parts: [
            { type: 'text', text: 'look' },
            { type: 'file_ref', path: i % 2 === 0 ? 'pic.png' : 'd/pic.png' },
          ],
        };
        // a millisecond's pacing, so attempts do not lock step with the swapper
        await new Promise((resolve) => setTimeout(resolve, 1));
        const outcome = (await attempt(codex, input, `race-${i}`)) ?? 'none';
        outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
      }
    } finally {
      expect(await swapper.stop()).toBeGreaterThan(0);
    }
    const urls = imageUrls(codex);
    const inside = `data:image/png;base64,${INSIDE.toString('base64')}`;
    expect(urls.length).toBeGreaterThan(0);
    // a refusal is allowed (the swap was seen); the outside image's pixel reaching the model,
    // however codex encoded it, is the leak
    const pixels = urls.map((u) => firstPixel(Buffer.from(u.split(',')[1] ?? '', 'base64')));
    expect(pixels.filter((p) => p !== firstPixel(INSIDE))).toEqual([]);
    // and what reached it is the bytes the adapter read itself
    expect(urls.filter((u) => u !== inside)).toEqual([]);
    rmSync(outside, { recursive: true, force: true });
  });

  it.each([
    ['a directory', 'folder.png', 'file_ref_not_regular_file'],
    ['a FIFO named like an image', 'pipe.png', 'file_ref_not_regular_file'],
  ])(
    '%s is refused before anything is sent, without waiting',
    async (_name, path, providerCode) => {
      const codex = await openRealCodex({ fileReferences: 'resolve' });
      mkdirSync(join(codex.iso.workspace, 'folder.png'));
      execFileSync('mkfifo', [join(codex.iso.workspace, 'pipe.png')]);
      const started = Date.now();
      const error = await turns.refusal(
        codex.session,
        { parts: [{ type: 'file_ref', path }] },
        'x',
      );
      expect(isProviderRejection(error) && error.agentError).toMatchObject({
        code: 'invalid_request',
        providerCode,
      });
      expect(JSON.stringify(error)).not.toContain(path);
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(codex.server.requests).toHaveLength(0);
    },
  );
});
