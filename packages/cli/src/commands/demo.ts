import { EXIT } from '../exit-codes.js';
import type { CliIo } from '../program.js';
import type { Output } from '../ui/output.js';

export interface DemoOptions {
  readonly json: boolean;
  readonly answer: 'approve' | 'deny' | 'ask';
  readonly keep: boolean;
  readonly codex: string | undefined;
}

export function runDemo(_o: DemoOptions, out: Output, _io: CliIo): Promise<number> {
  out.error('demo: waiting for the runtime');
  return Promise.resolve(EXIT.failed);
}
