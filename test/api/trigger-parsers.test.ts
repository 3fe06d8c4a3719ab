import { describe, expect, it } from 'vitest';
import { cloudWatchAlarmEvent, pagerDutyWebhook } from '../../lib/domain/trigger.ts';
import { describeTrigger } from '../../lib/triggers/brief.ts';
import { identifyTrigger, investigationIdFor } from '../../lib/triggers/identity.ts';
import { incidentAnnotated } from './pagerduty-samples.ts';
import { samples } from './support.ts';

describe('trigger parsers on real sample events', () => {
  it('single-metric alarm: identity is the alarm ARN and state time, the group is its service and resource', () => {
    const event = cloudWatchAlarmEvent.parse(samples.singleMetricAlarm());
    const identity = identifyTrigger({ cloudwatchAlarm: event });
    expect(identity.occurrenceKey).toBe(`alarm|${event.resources[0]}|${new Date(event.detail.state.timestamp!.replace(/(\d{2})(\d{2})$/, '$1:$2')).toISOString()}`);
    expect(identity.service).toBe('storefront-web');
    expect(identity.groupKey).toContain('TargetGroup=targetgroup/storefront-web/');
    expect(identity.groupKey).toContain('LoadBalancer=app/prod-shop-public/');
    expect(describeTrigger({ cloudwatchAlarm: event }).summary).toBe('CloudWatch alarm storefront-web-alb-target-5xx is ALARM');
  });

  it('metric-math alarm: the expression is kept and the service comes from the input metrics', () => {
    const event = cloudWatchAlarmEvent.parse(samples.metricMathAlarm());
    const identity = identifyTrigger({ cloudwatchAlarm: event });
    expect(identity.service).toBe('promo-redeem');
    expect(identity.groupKey).toContain('FunctionName=promo-redeem');
    expect(describeTrigger({ cloudwatchAlarm: event }).text).toContain('expression 100 * m2 / (m1 + m2)');
  });

  it('composite alarm: no resource, so it groups by its own ARN; the rule reaches the brief', () => {
    const event = cloudWatchAlarmEvent.parse(samples.compositeAlarm());
    const identity = identifyTrigger({ cloudwatchAlarm: event });
    expect(identity.service).toBeUndefined();
    expect(identity.groupKey).toBe(`alarm|${event.resources[0]}`);
    expect(describeTrigger({ cloudwatchAlarm: event }).text).toContain('Composite alarm rule: ALARM("cart-api-p99-latency") OR ALARM("cart-api-5xx")');
  });

  it('one rule on two resources makes two groups; two alarms on one resource make one', () => {
    const base = samples.singleMetricAlarm();
    const onResource = (targetGroup: string, alarmName: string) => {
      const event = structuredClone(base);
      event.detail.alarmName = alarmName;
      event.resources = [`arn:aws:cloudwatch:us-east-1:123456789012:alarm:${alarmName}`];
      event.detail.configuration.metrics[0].metricStat.metric.dimensions.TargetGroup = targetGroup;
      return identifyTrigger({ cloudwatchAlarm: cloudWatchAlarmEvent.parse(event) });
    };
    const a = onResource('targetgroup/storefront-web/aaa', 'storefront-5xx');
    const b = onResource('targetgroup/storefront-web/bbb', 'storefront-5xx');
    const c = onResource('targetgroup/storefront-web/aaa', 'storefront-latency');
    expect(a.groupKey).not.toBe(b.groupKey);
    expect(a.groupKey).toBe(c.groupKey);
    expect(a.occurrenceKey).not.toBe(c.occurrenceKey);
  });

  it('PagerDuty incident.triggered: the incident id is the identity, the PagerDuty service is the service', () => {
    const webhook = pagerDutyWebhook.parse(samples.incidentTriggered());
    const identity = identifyTrigger({ pagerduty: webhook });
    expect(identity.occurrenceKey).toBe('pagerduty|QMQUHVBJ2QTZ50');
    expect(identity.service).toBe('Payments (prod)');
    expect(investigationIdFor(identity)).toMatch(/^inv-[0-9a-f]{32}$/);
    expect(investigationIdFor(identity)).toBe(investigationIdFor({ occurrenceKey: 'pagerduty|QMQUHVBJ2QTZ50' }));
  });

  it('PagerDuty incident.annotated parses; its note is an annotation, not an incident', () => {
    const webhook = pagerDutyWebhook.parse(incidentAnnotated('QMQUHVBJ2QTZ50', 'Restarted the payment pods'));
    expect(webhook.event.event_type).toBe('incident.annotated');
    expect(webhook.event.data.type).toBe('incident_note');
  });
});
