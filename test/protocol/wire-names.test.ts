/** The wire names: the pinned server requests only, and every bridged method among them. */
import { describe, expect, it } from 'vitest';
import {
  CODEX_BRIDGED_APPROVAL,
  CODEX_BRIDGED_ELICITATION,
  CODEX_BRIDGED_FILE_CHANGE,
  CODEX_BRIDGED_PERMISSIONS,
  CODEX_BRIDGED_QUESTION,
  CODEX_BRIDGED_TOOL_CALL,
  CODEX_CLIENT_METHOD,
  isPinnedServerRequest,
} from '../../src/protocol/wire-names.js';

describe('wire names', () => {
  it('knows the pinned server-request methods only', () => {
    expect(isPinnedServerRequest('item/tool/requestUserInput')).toBe(true);
    expect(isPinnedServerRequest('item/tool/requestUserInput ')).toBe(false);
    expect(isPinnedServerRequest('__proto__')).toBe(false);
  });

  it('bridges only pinned server requests', () => {
    for (const method of [
      CODEX_BRIDGED_APPROVAL,
      CODEX_BRIDGED_QUESTION,
      CODEX_BRIDGED_FILE_CHANGE,
      CODEX_BRIDGED_PERMISSIONS,
      CODEX_BRIDGED_ELICITATION,
      CODEX_BRIDGED_TOOL_CALL,
    ]) {
      expect(isPinnedServerRequest(method)).toBe(true);
    }
  });

  it('sends each method under one name', () => {
    const methods = Object.values(CODEX_CLIENT_METHOD);
    expect(new Set(methods).size).toBe(methods.length);
  });
});
