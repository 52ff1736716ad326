import { EXIT } from '../exit-codes.js';
import type { CliIo } from '../program.js';
import type { Output } from '../ui/output.js';

export interface RunOptions {
  readonly prompt: string;
  readonly profile: string | undefined;
  readonly config: string | undefined;
  readonly cwd: string | undefined;
  readonly sandbox: 'read-only' | 'workspace-write' | 'danger-full-access' | undefined;
  readonly approvals: 'bridge' | 'none' | undefined;
  readonly eventLog: string | undefined;
  readonly json: boolean;
  readonly codex: string | undefined;
}

export function runRun(_o: RunOptions, out: Output, _io: CliIo): Promise<number> {
  out.error('run: waiting for the runtime');
  return Promise.resolve(EXIT.failed);
}
