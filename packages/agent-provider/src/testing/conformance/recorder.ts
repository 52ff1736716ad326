import type { ProviderEventSink } from '../../interfaces.js';
import { captureJson, type JsonValue } from '../../json.js';
import { providerEventInputSchema, type ProviderEventPayload } from '../../schemas/events.js';

/** Members only the runtime adds (docs/spi.md §10.1); a provider must never supply them. */
export const RUNTIME_STAMPED_MEMBERS = [
  'eventId',
  'sequence',
  'occurredAt',
  'sessionId',
  'runId',
] as const;

export interface RecordedEmission {
  /** The captured (cloned, frozen) input, or undefined when it was not JSON. */
  readonly captured: JsonValue | undefined;
  /** The parsed payload when the input was valid. */
  readonly payload: ProviderEventPayload | undefined;
  /** Emitted after the owning run's completion settled. */
  readonly stale: boolean;
  readonly order: number;
}

export interface Recorder extends ProviderEventSink {
  readonly label: string;
  readonly emissions: readonly RecordedEmission[];
  /** Problems found synchronously at emit time (schema, JSON, stamped members). */
  readonly violations: readonly string[];
  payloads(): ProviderEventPayload[];
  /** Marks the sink stale: any later emission is a contract failure. */
  close(): void;
  readonly closed: boolean;
}

let globalOrder = 0;

function stampedMembers(value: unknown): string[] {
  if (typeof value !== 'object' || value === null) return [];
  const found: string[] = [];
  const payload: unknown = (value as { payload?: unknown }).payload;
  for (const target of [value, payload]) {
    if (typeof target !== 'object' || target === null) continue;
    for (const member of RUNTIME_STAMPED_MEMBERS) {
      if (Object.hasOwn(target, member)) found.push(member);
    }
  }
  return found;
}

function describeIssues(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
): string {
  return issues
    .slice(0, 3)
    .map((issue) => `${issue.path.map(String).join('.') || '(root)'}: ${issue.message}`)
    .join('; ');
}

/**
 * A recording sink that never throws. It checks each emission the way the runtime would
 * (JSON capture, strict parse), and remembers whether it arrived after completion settled.
 */
export function recorder(label: string): Recorder {
  const emissions: RecordedEmission[] = [];
  const violations: string[] = [];
  let closed = false;
  return {
    label,
    emissions,
    violations,
    get closed() {
      return closed;
    },
    close() {
      closed = true;
    },
    payloads() {
      return emissions.flatMap((e) => (e.payload === undefined ? [] : [e.payload]));
    },
    emit(input) {
      globalOrder += 1;
      const order = globalOrder;
      const stale = closed;
      try {
        const captured = captureJson(input);
        if (!captured.ok) {
          violations.push(`${label}: an emission is not JSON-safe (${captured.reason})`);
          emissions.push({ captured: undefined, payload: undefined, stale, order });
          return;
        }
        const stamped = stampedMembers(captured.value);
        if (stamped.length > 0) {
          violations.push(
            `${label}: an emission carries runtime-stamped member(s) ${stamped.join(', ')}`,
          );
        }
        const parsed = providerEventInputSchema.safeParse(captured.value);
        if (!parsed.success) {
          const type = (input as { payload?: { type?: unknown } } | undefined)?.payload?.type;
          violations.push(
            `${label}: a ${typeof type === 'string' ? type.slice(0, 40) : 'malformed'} emission fails the ProviderEventInput schema (${describeIssues(parsed.error.issues)})`,
          );
        }
        emissions.push({
          captured: captured.value,
          payload: parsed.success ? parsed.data.payload : undefined,
          stale,
          order,
        });
      } catch {
        violations.push(`${label}: an emission could not be inspected`);
      }
    },
  };
}

/** The emission order reached so far, for "before / after" comparisons across sinks. */
export function currentOrder(): number {
  return globalOrder;
}
