/** The wire names: the pinned server requests only, and every bridged method among them. */
import { describe, expect, it } from 'vitest';
import * as wire from '../../src/protocol/wire-names.js';

describe('wire names', () => {
  it('knows the pinned server-request methods only', () => {
    expect(wire.isPinnedServerRequest('item/tool/requestUserInput')).toBe(true);
    expect(wire.isPinnedServerRequest('item/tool/requestUserInput ')).toBe(false);
    expect(wire.isPinnedServerRequest('__proto__')).toBe(false);
  });

  it('bridges only pinned server requests', () => {
    for (const method of [
      wire.CODEX_BRIDGED_APPROVAL,
      wire.CODEX_BRIDGED_QUESTION,
      wire.CODEX_BRIDGED_FILE_CHANGE,
      wire.CODEX_BRIDGED_PERMISSIONS,
      wire.CODEX_BRIDGED_ELICITATION,
      wire.CODEX_BRIDGED_TOOL_CALL,
    ]) {
      expect(wire.isPinnedServerRequest(method)).toBe(true);
    }
  });

  it('sends each method under one name', () => {
    const methods = Object.values(wire.CODEX_CLIENT_METHOD);
    expect(new Set(methods).size).toBe(methods.length);
  });
});
