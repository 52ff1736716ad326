/**
 * Canaries and item frames for the tool-activity redaction tests (ADR-0014): a workspace root,
 * canary secrets, paths and output, and a tracker fed item params as the edge decodes them.
 * Registers nothing when imported.
 */
import { expect } from 'vitest';
import { ToolActivityTracker } from '../../src/session/tool-activity.js';
import { toolItemOf } from './inbound.js';

/** What must never reach an event: a secret, a GitHub token, a path outside, output, a password. */
export const CANARY = {
  secret: 'sk-CANARYTOOLSECRET1234567890',
  gh: 'ghp_CANARYCANARYCANARY123456',
  outside: '/home/canary-user/.ssh/id_canary',
  output: 'CANARY-OUTPUT-do-not-copy',
  bare: 'hunter2canarypassword',
} as const;

/** The workspace root (its absolute path must not reach an event either). */
export const ROOT = '/srv/canary-ws/project';

type Item = Record<string, unknown>;

/** `item/started` / `item/completed` params around `item`. */
export function itemFrame(item: Item): Item {
  return { threadId: 'th', turnId: 'tu', item };
}

/** A commandExecution item reading a canary outside the root; `over` replaces members. */
export function command(over: Item = {}): Item {
  return {
    type: 'commandExecution',
    id: 'call_1',
    command: `/bin/bash -lc 'cat ${CANARY.outside} ${ROOT}/src/a.ts'`,
    cwd: ROOT,
    status: 'inProgress',
    commandActions: [],
    aggregatedOutput: null,
    exitCode: null,
    durationMs: null,
    ...over,
  };
}

/** A fileChange item with `changes`. */
export function fileChange(status: string, changes: unknown[], id = 'p1'): Item {
  return { type: 'fileChange', id, status, changes };
}

/** A tracker over ROOT, and its started/completed fed `item` as the edge decodes it. */
export function tracked() {
  const tracker = new ToolActivityTracker(ROOT);
  return {
    tracker,
    started: (item: Item) => tracker.started(toolItemOf(itemFrame(item))),
    completed: (item: Item) => tracker.completed(toolItemOf(itemFrame(item))),
  };
}

/** No canary (nor the root's or the outside user's name) anywhere in `value`. */
export function expectNoCanary(value: unknown): void {
  const text = JSON.stringify(value);
  for (const canary of [...Object.values(CANARY), '/srv/canary-ws', 'canary-user']) {
    expect(text).not.toContain(canary);
  }
}
