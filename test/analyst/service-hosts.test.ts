import { describe, expect, it } from 'vitest';
import { collectSignals } from '../../lib/analyst/signals.ts';
import { namesServiceHost as namesHost, serviceHostsOf } from '../../lib/analyst/service-hosts.ts';
import { diagnose } from '../../lib/analyst/diagnose.ts';
import { at, boardFrom, linesFrom, sorted } from './board-builder.ts';

const namesServiceHost = (nodes: Parameters<typeof serviceHostsOf>[0], text: string, service: string) => namesHost(serviceHostsOf(nodes), text, service);

const START = '2026-03-02T10:00:00.000Z';
const lines = linesFrom(START);

const services = (edgeTags: Record<string, string>, otherTags: Record<string, string> = {}) => [
  { name: 'storefront', kind: 'ecs', dependsOn: ['edge'], calledBy: [] },
  { name: 'edge', kind: 'elb', dependsOn: ['orders'], calledBy: ['storefront'], tags: edgeTags },
  { name: 'orders', kind: 'ecs', dependsOn: [], calledBy: ['edge'], tags: otherTags },
];

describe('a dependency named by the host its tags give', () => {
  it('is named by a caller’s error that calls that host', () => {
    expect(namesServiceHost(services({ host: 'api.shop.example.com' }), 'GET https://api.shop.example.com/v2/cart -> 503', 'edge')).toBe(true);
  });

  it('is named by the placeholder masking gave the host, in the tag and the error alike', () => {
    expect(namesServiceHost(services({ record: '<HOST_4> (weighted alias)' }), 'upstream failed: GET https://<HOST_4>/v2/cart -> 503', 'edge')).toBe(true);
    expect(namesServiceHost(services({ record: '<HOST_4> (weighted alias)' }), 'upstream failed: GET https://<HOST_41>/v2/cart -> 503', 'edge')).toBe(false);
  });

  it('is not named by a longer host that only begins with it, nor by another placeholder kind', () => {
    expect(namesServiceHost(services({ host: 'api.shop.example.com' }), 'GET https://api.shop.example.com.cdn.example.net/x failed', 'edge')).toBe(false);
    expect(namesServiceHost(services({ owner: '<ACCOUNT_1>' }), 'AccessDenied for <ACCOUNT_1>', 'edge')).toBe(false);
  });

  it('is named by a host its callers’ tags also give, as the upstream they call', () => {
    expect(namesServiceHost(services({ host: 'api.shop.example.com' }).map((node) => (node.name === 'storefront' ? { ...node, tags: { upstream: 'https://api.shop.example.com' } } : node)), 'GET https://api.shop.example.com/v2/cart -> 503', 'edge')).toBe(true);
  });

  it('is not named by a host two services’ tags give', () => {
    expect(namesServiceHost(services({ host: 'api.shop.example.com' }, { dns: 'api.shop.example.com (weighted)' }), 'GET https://api.shop.example.com/v2/cart -> 503', 'edge')).toBe(false);
  });

  it('turns the caller’s errors into evidence against that dependency', () => {
    const board = boardFrom({
      brief: 'CloudWatch alarm "storefront-5xx" is in ALARM',
      services: services({ host: 'api.shop.example.com' }),
      logs: sorted([
        ...lines('storefront', 0, 2, 30, 'INFO', (index) => `GET /p/${index} 200 41ms`),
        ...lines('storefront', 60, 2, 15, 'ERROR', (index) => `upstream request failed: GET https://api.shop.example.com/v2/items/${index} -> 503 Service Unavailable`),
      ]),
    });
    expect(collectSignals(board).some((signal) => signal.kind === 'mentioned' && signal.service === 'edge' && signal.from === 'storefront')).toBe(true);
  });
});

describe('a host a line only lists', () => {
  it('in a dump of settings, names no dependency that failed', () => {
    expect(namesServiceHost(services({ host: 'api.shop.example.com' }), "ValidationError: input_value={'base_url': 'https://api.shop.example.com/v3', 'log_level': 'INFO'}", 'edge')).toBe(false);
  });
});

describe('a record that keeps no evidence of its own', () => {
  /** A canary whose own errors name no host, beside a web tier whose errors name the record's host; the record's weights moved at minute 58. */
  const behindRecord = (webNamesHost: boolean) =>
    diagnose(
      boardFrom({
        brief: 'CloudWatch alarm "api-canary" is in ALARM',
        services: [
          { name: 'canary', kind: 'lambda', dependsOn: ['api-record'] },
          { name: 'web', kind: 'ecs', dependsOn: ['api-record'] },
          { name: 'api-record', kind: 'other', dependsOn: ['api-green'], tags: { record: 'api.example.com (weighted alias)' } },
          { name: 'api-green', kind: 'ecs' },
        ],
        alarms: [{ name: 'api-canary', service: 'canary', state: 'ALARM', since: at(START, 66) }],
        changes: [{ service: 'api-record', timestamp: at(START, 58), kind: 'network', summary: 'ChangeResourceRecordSets: UPSERT api.example.com A alias weighted (standby weight 0 -> 25)' }],
        logs: sorted([
          ...lines('canary', 0, 5, 24, 'INFO', () => 'Canary run passed'),
          ...lines('canary', 60, 3, 15, 'ERROR', () => 'Step health failed: 503 Service Temporarily Unavailable'),
          ...lines('web', 0, 4, 30, 'INFO', (index) => `GET /p/${index} 200`),
          ...lines('web', 60, 2, 20, 'ERROR', (index) => (webNamesHost ? `upstream failed: GET https://api.example.com/v1/items/${index} -> 503` : `upstream failed: item ${index} -> 503`)),
        ]),
      }),
    );

  it('fails as its other callers report it failing: the search reaches it from a caller that names no host', () => {
    expect(behindRecord(true).root).toBe('api-record');
  });

  it('is not reached when no caller names it', () => {
    expect(behindRecord(false).root).not.toBe('api-record');
  });
});

describe('a third party’s endpoint', () => {
  it('names no dependency by its host: where the calls went is not why they failed', () => {
    const withProvider = [
      { name: 'labels', kind: 'ecs', dependsOn: ['carrier'], calledBy: [] },
      { name: 'carrier', kind: 'external', dependsOn: [], calledBy: ['labels'], tags: { endpoint: 'api.carrier.example.com:443' } },
    ];
    expect(namesServiceHost(withProvider, 'POST https://api.carrier.example.com/v3/labels failed: ConnectTimeoutError', 'carrier')).toBe(false);
  });
});
