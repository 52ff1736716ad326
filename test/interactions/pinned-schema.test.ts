/**
 * The hand-written strict parsers against the generated schema of the baseline release: same members
 * (plus, for approvals, exactly the one the real binary sends beyond it), and every recorded
 * native request satisfies both.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { nativeCommandApprovalParamsSchema } from '../../src/interactions/native-approval.js';
import { nativeUserInputParamsSchema } from '../../src/interactions/native-question.js';
import { loadTranscript } from '../support/replay.js';
import { pinnedSchemaDir } from '../support/fake-transport.js';

const SCHEMA_DIR = pinnedSchemaDir();

function pinned(name: string): { properties: Record<string, unknown>; required?: string[] } {
  return JSON.parse(readFileSync(join(SCHEMA_DIR, `${name}.json`), 'utf8')) as {
    properties: Record<string, unknown>;
    required?: string[];
  };
}

function recorded(method: string): unknown[] {
  return ['approval_accept', 'approval_decline', 'approval_cancel', 'request_user_input']
    .flatMap((scenario) => loadTranscript(scenario))
    .filter((l) => l.dir === 's2c' && l.frame.method === method)
    .map((l) => l.frame.params);
}

describe('native parsers match the baseline schema', () => {
  it('command approval: the stable members plus availableDecisions, which the binary sends anyway', () => {
    const stable = Object.keys(pinned('CommandExecutionRequestApprovalParams').properties).sort();
    const ours = Object.keys(nativeCommandApprovalParamsSchema.shape).sort();
    expect(ours.filter((k) => !stable.includes(k))).toEqual(['availableDecisions']);
    expect(stable.filter((k) => !ours.includes(k))).toEqual([]);
  });

  it('request_user_input: exactly the stable members', () => {
    const stable = Object.keys(pinned('ToolRequestUserInputParams').properties).sort();
    expect(Object.keys(nativeUserInputParamsSchema.shape).sort()).toEqual(stable);
  });

  it('every recorded native request passes both the pinned JSON Schema and our strict parser', () => {
    const ajv = new Ajv({ strict: false });
    ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isInteger(n) });
    ajv.addFormat('uint', {
      type: 'number',
      validate: (n: number) => Number.isInteger(n) && n >= 0,
    });
    ajv.addFormat('uint64', {
      type: 'number',
      validate: (n: number) => Number.isInteger(n) && n >= 0,
    });
    const cases = [
      [
        'item/commandExecution/requestApproval',
        'CommandExecutionRequestApprovalParams',
        nativeCommandApprovalParamsSchema,
      ],
      ['item/tool/requestUserInput', 'ToolRequestUserInputParams', nativeUserInputParamsSchema],
    ] as const;
    for (const [method, name, ours] of cases) {
      const frames = recorded(method);
      expect(frames.length).toBeGreaterThan(0);
      const validate = ajv.compile(pinned(name));
      for (const params of frames) {
        expect(validate(params), `${name}: ${JSON.stringify(validate.errors)}`).toBe(true);
        expect(ours.safeParse(params).success).toBe(true);
      }
    }
  });
});
