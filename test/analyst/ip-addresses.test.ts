import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { at, boardFrom, linesFrom, series, sorted } from './board-builder.ts';

const START = '2026-11-26T12:00:00.000Z';
const lines = linesFrom(START);

/** Workers that cannot start pods once their subnets have no free address left (from minute 60). */
const board = boardFrom({
  brief: 'Why is the transcode queue growing?',
  services: [
    { name: 'transcode-workers', kind: 'eks', dependsOn: ['transcode-queue', 'worker-subnets'] },
    { name: 'transcode-queue', kind: 'sqs' },
    { name: 'worker-subnets', kind: 'other' },
  ],
  alarms: [{ name: 'transcode-queue-oldest-message', service: 'transcode-queue', state: 'ALARM', since: at(START, 150) }],
  metrics: [
    { service: 'worker-subnets', name: 'AvailableIpAddressCount', points: series(START, 240, (minute) => Math.max(0, 30 - Math.floor(minute / 2))) },
    { service: 'transcode-queue', name: 'ApproximateAgeOfOldestMessage', points: series(START, 240, (minute) => (minute < 90 ? 120 : 120 + (minute - 90) * 60)) },
  ],
  logs: sorted([
    ...lines('transcode-workers', 0, 5, 48, 'INFO', (index) => `episode ep_${index} transcoded in 41s`),
    ...lines('transcode-workers', 70, 6, 28, 'WARN', (index) => `Failed to create pod sandbox: plugin type="aws-cni" failed (add): failed to assign an IP address to container (pod transcode-${index})`),
  ]),
});

describe('a subnet out of free addresses', () => {
  it('is the root, exhausted, named in plain words and given address space rather than restarted', () => {
    const { draft } = diagnose(board);
    expect(draft.rootCause).toMatchObject({ service: 'worker-subnets', category: 'resource-exhaustion' });
    expect(draft.rootCause.summary).toContain('running out of IP addresses');
    expect(draft.remediation.map(({ action, target }) => `${action} ${target}`)).toEqual(['apply-fix worker-subnets']);
  });
});
