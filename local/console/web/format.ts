/** Times are shown in UTC, as the alarms and logs write them, so they line up with the evidence. */
export const formatTime = (iso: string): string => {
  const millis = Date.parse(iso);
  return Number.isNaN(millis) ? iso : `${new Date(millis).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
};

const durationWords = (millis: number): string => {
  const seconds = Math.round(millis / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${seconds % 60} s`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ${minutes % 60} min`;
  return `${Math.floor(hours / 24)} d`;
};

export const formatAge = (iso: string, now: number): string => {
  const millis = Date.parse(iso);
  if (Number.isNaN(millis)) return 'unknown';
  return `${durationWords(Math.max(0, now - millis))} ago`;
};

/** Null once the time has passed. */
export const timeLeft = (expiresAt: string, now: number): string | null => {
  const left = Date.parse(expiresAt) - now;
  return Number.isNaN(left) || left <= 0 ? null : `${durationWords(left)} left`;
};

export const formatCost = (usd: number): string => `$${usd.toFixed(usd >= 1 ? 2 : 4)}`;

export const formatConfidence = (confidence: number): string => `${Math.round(confidence * 100)}%`;
