import { z } from 'zod';
import { DEFAULT_GROUP_WINDOW_MS, DEFAULT_MAX_RUNNING, type AdmissionSettings } from '../triggers/admit.ts';

export class ApiSettingsError extends Error {
  override readonly name = 'ApiSettingsError';
}

const wholeNumber = z.string().trim().regex(/^\d+$/).transform(Number).pipe(z.number().int().positive());

const read = (env: Record<string, string | undefined>, name: string, fallback: number, unit: string): number => {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const parsed = wholeNumber.safeParse(raw);
  if (!parsed.success) throw new ApiSettingsError(`${name} must be a positive whole number of ${unit}, got "${raw}"`);
  return parsed.data;
};

/**
 * The doors' settings, read in one place:
 * - SRE_AGENT_GROUP_WINDOW_MINUTES (30): a trigger joins its group's investigation while the
 *   group's last trigger is at most this old;
 * - SRE_AGENT_MAX_RUNNING (10): investigations running at once; the rest are queued.
 */
export const admissionSettingsFromEnv = (env: Record<string, string | undefined>): Pick<AdmissionSettings, 'groupWindowMs' | 'maxRunning'> => ({
  groupWindowMs: read(env, 'SRE_AGENT_GROUP_WINDOW_MINUTES', DEFAULT_GROUP_WINDOW_MS / 60_000, 'minutes') * 60_000,
  maxRunning: read(env, 'SRE_AGENT_MAX_RUNNING', DEFAULT_MAX_RUNNING, 'investigations'),
});
