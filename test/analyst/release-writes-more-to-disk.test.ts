import { describe, expect, it } from 'vitest';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { at, boardFrom, linesFrom, series, sorted } from './board-builder.ts';

const START = '2026-09-08T06:00:00.000Z';
const HOUR_MINUTES = 60;
const lines = linesFrom(START);

interface Shape {
  /** What the worker's release changed, in its own notes. */
  notes?: string[];
  /** How long before the evidence starts the release went out. */
  releasedMinutesBefore?: number;
  /** Warnings the worker logs about the queue it takes its work from, from this minute on. */
  storeWarningsFrom?: number;
}

/**
 * A worker taking a web app's jobs off a queue, its pods evicted by the kubelet for the local storage they filled; a
 * release of the worker more than a day before. Nothing measures the pods' volumes.
 */
const incident = ({ notes = ['audit events now also go to a FileHandler at /var/log/worker/audit.log', 'bump the HTTP client'], releasedMinutesBefore = 30 * HOUR_MINUTES, storeWarningsFrom }: Shape = {}) =>
  boardFrom({
    brief: 'CloudWatch alarm "worker-pods-not-ready" is in ALARM',
    services: [
      { name: 'web', kind: 'eks', dependsOn: ['jobs'] },
      { name: 'jobs', kind: 'sqs' },
      { name: 'worker', kind: 'eks', dependsOn: ['jobs'] },
      { name: 'pricing', kind: 'eks' },
    ],
    alarms: [{ name: 'worker-pods-not-ready', service: 'worker', state: 'ALARM', since: at(START, 64) }],
    changes: [
      { service: 'worker', timestamp: at(START, -releasedMinutesBefore), kind: 'deploy', summary: 'worker 4.2.0 rolled out', details: { version: '4.2.0', changelog: notes } },
      { service: 'pricing', timestamp: at(START, 20), kind: 'deploy', summary: 'pricing 1.9.1 rolled out' },
    ],
    metrics: [{ service: 'web', name: 'HTTPCode_Target_5XX_Count', points: series(START, 90, (minute) => (minute >= 62 ? 30 : 0)) }],
    logs: sorted([
      ...lines('worker', 0, 4, 22, 'INFO', (index) => `job ${index} done in 820ms`),
      ...lines('web', 0, 4, 22, 'INFO', (index) => `GET /documents/${index} 200`),
      ...(storeWarningsFrom === undefined ? [] : lines('worker', storeWarningsFrom, 4, Math.floor((88 - storeWarningsFrom) / 4), 'WARN', (index) => `jobs: consumer shutting down, releasing ${index} leased messages`)),
      ...lines('worker', 60, 4, 8, 'Warning', () => 'Evicted: Pod ephemeral local storage usage exceeds the total limit of containers 4Gi.'),
      ...lines('web', 62, 3, 10, 'ERROR', (index) => `GET /exports/${index} 504: export job still waiting after 30000ms`),
    ]),
  });

describe('a release that writes more to its own disk', () => {
  it('is rolled back when its pods are evicted for local storage a day later', () => {
    const diagnosis = diagnose(incident());
    expect(diagnosis.root).toBe('worker');
    expect(diagnosis.principles).toContain('latent-setting');
    expect(diagnosis.draft.rootCause.summary).toMatch(/FileHandler/);
    expect(diagnosis.draft.remediation[0]).toMatchObject({ action: 'rollback', target: 'worker' });
  });

  it('a verbose log level counts, however it is said', () => {
    expect(diagnose(incident({ notes: ['raise com.example.jobs to DEBUG while we chase the retry bug'] })).principles).toContain('latent-setting');
  });

  it('a release that changed nothing about what it writes, or came more than a week before, is not it', () => {
    expect(diagnose(incident({ notes: ['bump the HTTP client', 'new retry budget'] })).principles).not.toContain('latent-setting');
    expect(diagnose(incident({ releasedMinutesBefore: 9 * 24 * HOUR_MINUTES })).principles).not.toContain('latent-setting');
  });
});

describe('a service evicted for what it used', () => {
  it('fails by itself, whatever it warned about a dependency well before', () => {
    const diagnosis = diagnose(incident({ notes: ['bump the HTTP client'], storeWarningsFrom: 10 }));
    expect(diagnosis.root).toBe('worker');
    expect(diagnosis.draft.rootCause.category).toBe('resource-exhaustion');
  });

  it('and what it warns as it is stopped echoes the eviction', () => {
    expect(diagnose(incident({ notes: ['bump the HTTP client'], storeWarningsFrom: 61 })).root).toBe('worker');
  });
});
