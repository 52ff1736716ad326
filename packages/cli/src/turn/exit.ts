import type { RunTermination } from '@relvo-labs/agent-provider';
import { EXIT, type ExitCode } from '../exit-codes.js';
import type { CliIo } from '../cli-io.js';
import type { PromptStreams } from '../ui/prompt.js';

/** 0 succeeded, 1 failed, 130 interrupted by the person. */
export function exitCodeFor(termination: RunTermination): ExitCode {
  switch (termination.outcome) {
    case 'succeeded':
      return EXIT.ok;
    case 'failed':
      return EXIT.failed;
    case 'interrupted':
      return EXIT.interrupted;
  }
}

/** Prompts need a terminal on stdin and on stderr (where they draw). */
export function terminalStreams(io: CliIo): PromptStreams | undefined {
  return io.stdin.isTTY && io.stderr.isTTY ? { input: io.stdin, output: io.stderr } : undefined;
}
