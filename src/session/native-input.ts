/**
 * What codex is sent for a turn input: text parts, file references resolved inside the workspace
 * (ADR-0017). Separate from admission because both `startRun` and `steer` convert input the same
 * way, and the conversion holds no session state.
 */
import type { ProviderRejection, TurnInput } from '@relvo-labs/agent-provider';
import { codexRejection } from '../shared/codex-error.js';
import { nativeInputOf, type NativeUserInput } from './file-refs.js';
import type { RunFeatures } from './run.js';
import { oversizedText } from './run-request.js';

export type NativeTurnInput =
  | { readonly ok: true; readonly input: readonly NativeUserInput[] }
  | { readonly ok: false; readonly rejection: ProviderRejection };

export function nativeTurnInput(
  input: TurnInput,
  features: RunFeatures | undefined,
): NativeTurnInput {
  const supported = features?.fileReferences === true ? ['text', 'file_ref'] : ['text'];
  const unsupported = input.parts.filter((p) => !supported.includes(p.type)).map((p) => p.type);
  if (unsupported.length > 0) {
    return {
      ok: false,
      rejection: codexRejection('capability_unsupported', 'codex accepts text input parts only', {
        details: {
          capability: 'turnInput.parts',
          supported,
          requested: [...new Set(unsupported)],
        },
      }),
    };
  }
  // file references are resolved inside the workspace before anything is sent
  const native = nativeInputOf(input, features?.workspaceRoot ?? '');
  if (!native.ok) {
    return {
      ok: false,
      rejection: codexRejection('invalid_request', native.message, {
        providerCode: native.providerCode,
      }),
    };
  }
  const sentText = native.input[0]?.type === 'text' ? native.input[0].text : '';
  const tooLarge = oversizedText(sentText);
  return tooLarge === undefined
    ? { ok: true, input: native.input }
    : { ok: false, rejection: tooLarge };
}
