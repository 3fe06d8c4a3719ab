import { describe, expect, it } from 'vitest';
import { causesIn } from '../../lib/analyst/cause-signals.ts';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { at, boardFrom, linesFrom, sorted } from './board-builder.ts';

const START = '2026-06-03T16:00:00.000Z';
const lines = linesFrom(START);
const labels = (text: string) => causesIn(text).map((hit) => hit.label);

describe('a pod evicted for the local storage it filled', () => {
  it('ran out of disk, in the kubelet’s words for a container’s limit and for a node low on it', () => {
    expect(labels('Evicted: Pod ephemeral local storage usage exceeds the total limit of containers 2Gi.')).toContain('disk');
    expect(labels('The node was low on resource: ephemeral-storage. Container app was using 9Gi, which exceeds its request of 0.')).toContain('disk');
    expect(labels('ephemeral storage: 20 GiB (Fargate default)')).not.toContain('disk');
  });

  it('is resource exhaustion at the evicted service, not at the callers that time out on it', () => {
    const draft = diagnose(
      boardFrom({
        brief: 'CloudWatch alarm "portal-5xx" is in ALARM',
        services: [
          { name: 'portal', kind: 'eks', dependsOn: ['renderer'] },
          { name: 'renderer', kind: 'eks' },
        ],
        alarms: [{ name: 'portal-5xx', service: 'portal', state: 'ALARM', since: at(START, 70) }],
        logs: sorted([
          ...lines('renderer', 0, 5, 24, 'INFO', (index) => `rendered document ${index} in 640ms`),
          ...lines('renderer', 60, 6, 10, 'Warning', () => 'Evicted: Pod ephemeral local storage usage exceeds the total limit of containers 2Gi.'),
          ...lines('portal', 62, 4, 14, 'ERROR', (index) => `GET /documents/${index} 504: renderer did not answer within 30000ms`),
        ]),
      }),
    ).draft;
    expect(draft.rootCause).toMatchObject({ service: 'renderer', category: 'resource-exhaustion' });
  });
});
