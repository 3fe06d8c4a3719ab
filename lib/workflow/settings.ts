import { z } from 'zod';
import { maskingOptionsSchema, type MaskingOptions } from '../masking/index.ts';

/** Investigation settings beyond the model's, from the environment (locally) or the function's configuration (AWS). */
export interface InvestigationSettings {
  maxWallMs?: number;
  masking?: MaskingOptions;
  maxToolCallsPerTurn?: number;
}

export class SettingsError extends Error {
  override readonly name = 'SettingsError';
}

const wallSeconds = z.coerce.number().int().positive();
const toolCallsPerTurn = z.coerce.number().int().min(1).max(100);

/**
 * `SRE_AGENT_MAX_WALL_SECONDS`: wall-time cap per investigation. `SRE_AGENT_MASKING`: JSON masking
 * options, e.g. `{"maskServiceNames": ["payroll-api"], "namesToMask": ["Acme Corp"], "extraPatterns": [{"type": "TICKET", "pattern": "TCK-\\d+"}]}`.
 * `SRE_AGENT_MAX_TOOL_CALLS_PER_TURN`: tool calls run per model turn, 1-100 (default 16).
 */
export const investigationSettingsFromEnv = (env: Record<string, string | undefined>): InvestigationSettings => {
  const settings: InvestigationSettings = {};
  const wall = env.SRE_AGENT_MAX_WALL_SECONDS?.trim();
  if (wall) {
    const parsed = wallSeconds.safeParse(wall);
    if (!parsed.success) throw new SettingsError(`SRE_AGENT_MAX_WALL_SECONDS must be a positive whole number of seconds, got "${wall}"`);
    settings.maxWallMs = parsed.data * 1000;
  }
  const perTurn = env.SRE_AGENT_MAX_TOOL_CALLS_PER_TURN?.trim();
  if (perTurn) {
    const parsed = toolCallsPerTurn.safeParse(perTurn);
    if (!parsed.success) throw new SettingsError(`SRE_AGENT_MAX_TOOL_CALLS_PER_TURN must be a whole number from 1 to 100, got "${perTurn}"`);
    settings.maxToolCallsPerTurn = parsed.data;
  }
  const masking = env.SRE_AGENT_MASKING?.trim();
  if (masking) {
    let value: unknown;
    try {
      value = JSON.parse(masking);
    } catch (error) {
      throw new SettingsError(`SRE_AGENT_MASKING is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
    }
    const parsed = maskingOptionsSchema.safeParse(value);
    if (!parsed.success) throw new SettingsError(`SRE_AGENT_MASKING is not valid: ${z.prettifyError(parsed.error)}`);
    settings.masking = parsed.data;
  }
  return settings;
};
