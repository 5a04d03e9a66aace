// @ts-nocheck
// The "about 2 min 5 s left" part of the progress lines of long runs (reports, bulk).

function formatDuration(ms: number): string {
  const seconds = Math.ceil(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${seconds % 60} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** "about 1 min 5 s left", or undefined under a second (not worth saying). */
export function timeLeftText(ms: number): string | undefined {
  return ms >= 1000 ? `about ${formatDuration(ms)} left` : undefined;
}
