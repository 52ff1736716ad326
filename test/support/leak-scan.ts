import { processesWithEnv } from './proc-scan.js';

/** Set by the global setup in the vitest process (workers inherit it). */
export const RUN_ID_VAR = 'RELVO_TEST_RUN_ID';
/** The variable that tags every process a test starts (directly or through a descendant). */
export const LEAK_MARKER_VAR = 'RELVO_TEST_CHILD_MARKER';

export interface MarkedProcess {
  readonly pid: number;
  readonly comm: string;
}

/** Live processes whose environment carries `marker` (read through ./proc-scan). */
export function findMarkedProcesses(marker: string): MarkedProcess[] {
  return processesWithEnv(`${LEAK_MARKER_VAR}=${marker}`).map(({ pid, comm }) => ({ pid, comm }));
}
