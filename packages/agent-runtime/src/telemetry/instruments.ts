/** The runtime's metric instruments, created once per runtime on the host's meter. */
import type { Counter, Histogram, Meter, UpDownCounter } from '@opentelemetry/api';
import { METRIC } from './names.js';

/** The GenAI conventions' advised buckets: token counts, then seconds. */
const TOKEN_BUCKETS = [
  1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864,
];
const SECOND_BUCKETS = [
  0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92,
];
/** A store append is milliseconds, not seconds: finer buckets. */
const APPEND_BUCKETS = [
  0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1,
];

export interface Instruments {
  readonly tokenUsage: Histogram;
  readonly operationDuration: Histogram;
  readonly turns: Counter;
  readonly turnDuration: Histogram;
  readonly interactionWait: Histogram;
  readonly liveSessions: UpDownCounter;
  readonly retries: Counter;
  readonly storeAppend: Histogram;
}

export function createInstruments(meter: Meter): Instruments {
  const seconds = (name: string, description: string, buckets = SECOND_BUCKETS): Histogram =>
    meter.createHistogram(name, {
      unit: 's',
      description,
      advice: { explicitBucketBoundaries: buckets },
    });
  return {
    tokenUsage: meter.createHistogram(METRIC.tokenUsage, {
      unit: '{token}',
      description: 'Tokens a turn used, by gen_ai.token.type (input, output)',
      advice: { explicitBucketBoundaries: TOKEN_BUCKETS },
    }),
    operationDuration: seconds(METRIC.operationDuration, 'Duration of a turn (invoke_agent)'),
    turns: meter.createCounter(METRIC.turns, {
      unit: '{turn}',
      description: 'Turns settled, by outcome',
    }),
    turnDuration: seconds(METRIC.turnDuration, 'Turn start to settlement, by outcome'),
    interactionWait: seconds(
      METRIC.interactionWait,
      'An interaction (approval, question) from pending to settled',
    ),
    liveSessions: meter.createUpDownCounter(METRIC.liveSessions, {
      unit: '{session}',
      description: 'Sessions open in this runtime',
    }),
    retries: meter.createCounter(METRIC.retries, {
      unit: '{retry}',
      description: 'Model requests the provider reported it is retrying',
    }),
    storeAppend: seconds(
      METRIC.storeAppend,
      'One batch append to the event store (one transaction)',
      APPEND_BUCKETS,
    ),
  };
}
