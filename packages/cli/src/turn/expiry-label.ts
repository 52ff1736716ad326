/** How long a person has left to answer, as the prompt shows it: `2m 5s left to answer`. */
export function timeLeftLabel(expiresAt: string | undefined, nowMs: number): string {
  if (expiresAt === undefined) return '';
  const leftMs = Date.parse(expiresAt) - nowMs;
  if (!Number.isFinite(leftMs)) return '';
  // whole seconds, rounded up: "0s left" only once the deadline has passed
  const total = Math.max(0, Math.ceil(leftMs / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const parts = h > 0 ? [`${h}h`, `${m}m`] : m > 0 ? [`${m}m`, `${s}s`] : [`${s}s`];
  return `${parts.join(' ')} left to answer`;
}
