import { describe, expect, it } from 'vitest';
import { isRefusedCapacity } from '../../lib/analyst/load-source.ts';
import type { Signal } from '../../lib/analyst/signals.ts';

const logged = (text: string): Signal => ({
  service: 'profile-api',
  kind: 'errors',
  at: Date.parse('2026-06-02T15:12:00.000Z'),
  strength: 1,
  ongoing: true,
  substantial: true,
  ref: 'E4',
  description: `"${text}" at profile-api`,
  text,
});

describe('a service shedding load at a limit of its own', () => {
  it('refuses requests itself: it is not refused for want of a capacity', () => {
    expect(isRefusedCapacity([logged('load shedding: in_flight=256 limit=256, rejecting GET /v1/profiles/447627664 with 503')])).toBe(false);
  });

  it('while a service that is throttled by what it calls is', () => {
    expect(isRefusedCapacity([logged('ThrottlingException: Rate exceeded calling secretsmanager:GetSecretValue')])).toBe(true);
  });
});
