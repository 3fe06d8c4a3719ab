import { describe, expect, it } from 'vitest';
import { investigationSettingsFromEnv } from '../../lib/workflow/settings.ts';

describe('investigation settings from the environment', () => {
  it('reads the wall-time cap and the masking options', () => {
    expect(
      investigationSettingsFromEnv({ SRE_AGENT_MAX_WALL_SECONDS: '300', SRE_AGENT_MASKING: '{"maskServiceNames":["payroll-api"],"namesToMask":["Acme"]}' }),
    ).toEqual({ maxWallMs: 300_000, masking: { maskServiceNames: ['payroll-api'], namesToMask: ['Acme'] } });
    expect(investigationSettingsFromEnv({})).toEqual({});
  });

  it('names the variable when a value is wrong', () => {
    expect(() => investigationSettingsFromEnv({ SRE_AGENT_MAX_WALL_SECONDS: 'soon' })).toThrow(/SRE_AGENT_MAX_WALL_SECONDS/);
    expect(() => investigationSettingsFromEnv({ SRE_AGENT_MASKING: '{nope' })).toThrow(/SRE_AGENT_MASKING is not valid JSON/);
    expect(() => investigationSettingsFromEnv({ SRE_AGENT_MASKING: '{"maskServiceNames": "payroll"}' })).toThrow(/SRE_AGENT_MASKING is not valid/);
  });
});
