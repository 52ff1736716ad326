/**
 * Calls a host or observer callback that must not disturb the caller: a throw is swallowed and,
 * when asked, reported through `onThrow` (itself guarded). Used on every path where a sink,
 * a diagnostic observer or a host hook runs inside the data path.
 */
export function callSafely(call: () => void, onThrow?: () => void): void {
  try {
    call();
  } catch {
    if (onThrow === undefined) return;
    try {
      onThrow();
    } catch {
      // the report of a failure must not fail in turn
    }
  }
}
