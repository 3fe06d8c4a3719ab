import type { DBInstance, DescribeDBInstancesCommandInput, DescribeDBInstancesCommandOutput, DescribeEventsCommandInput, DescribeEventsCommandOutput } from '@aws-sdk/client-rds';
import type { RecordedEnvironment } from '../../scenario/recorded-environment.ts';
import { serviceException, type ServiceEmulation } from './emulator.ts';
import { emulatedAccount, emulatedRegion, serviceArnOf } from './service-identity.ts';

/** RDS keeps 14 days of events. */
const EVENT_HISTORY_MINUTES = 14 * 24 * 60;

const categoriesByKind: Readonly<Record<string, string[]>> = {
  config: ['configuration change'],
  infrastructure: ['maintenance'],
  network: ['configuration change'],
  scaling: ['configuration change'],
  deploy: ['notification'],
};

/** The scenario's RDS services as DB instances, named as their ARN names them (else after the service); a cluster ARN makes the instance a member of that cluster. */
const instancesOf = (environment: RecordedEnvironment): { service: string; instance: DBInstance }[] =>
  environment.services
    .filter((service) => service.kind === 'rds')
    .map((service) => {
      const arn = serviceArnOf(environment, service) ?? '';
      const cluster = /:cluster:(.+)$/.exec(arn)?.[1];
      const identifier = /:db:(.+)$/.exec(arn)?.[1] ?? service.name;
      return {
        service: service.name,
        instance: {
          DBInstanceIdentifier: identifier,
          DBInstanceArn: cluster ? `arn:aws:rds:${emulatedRegion(environment)}:${emulatedAccount(environment)}:db:${identifier}` : arn,
          DBInstanceStatus: 'available',
          ...(service.tags?.engine ? { Engine: service.tags.engine } : {}),
          ...(cluster ? { DBClusterIdentifier: cluster } : {}),
          TagList: Object.entries(service.tags ?? {}).map(([Key, Value]) => ({ Key, Value })),
        },
      };
    });

const describeDBInstances = (input: DescribeDBInstancesCommandInput, environment: RecordedEnvironment): Omit<DescribeDBInstancesCommandOutput, '$metadata'> => {
  const clusters = (input.Filters ?? []).find((filter) => filter.Name === 'db-cluster-id')?.Values;
  const instances = instancesOf(environment)
    .map(({ instance }) => instance)
    .filter(
      (instance) =>
        (input.DBInstanceIdentifier === undefined || instance.DBInstanceIdentifier === input.DBInstanceIdentifier || instance.DBInstanceArn === input.DBInstanceIdentifier) &&
        (clusters === undefined || clusters.includes(instance.DBClusterIdentifier ?? '')),
    );
  if (input.DBInstanceIdentifier !== undefined && instances.length === 0) throw serviceException('DBInstanceNotFound', `DBInstance ${input.DBInstanceIdentifier} not found.`, 404);
  return { DBInstances: instances };
};

/** The service's recorded changes, as the RDS events that reported them. */
const describeEvents = (input: DescribeEventsCommandInput, environment: RecordedEnvironment): Omit<DescribeEventsCommandOutput, '$metadata'> => {
  const start = input.StartTime?.getTime() ?? environment.nowMillis - (input.Duration ?? 60) * 60_000;
  const end = input.EndTime?.getTime() ?? environment.nowMillis;
  const instances = instancesOf(environment);
  const events = environment.changes(EVENT_HISTORY_MINUTES).flatMap((change) => {
    const instance = instances.find((candidate) => candidate.service === change.service)?.instance;
    if (!instance) return [];
    const asked = input.SourceIdentifier === undefined || input.SourceIdentifier === instance.DBInstanceIdentifier || input.SourceIdentifier === instance.DBClusterIdentifier;
    const at = Date.parse(change.timestamp);
    if (!asked || at < start || at > end) return [];
    return [
      {
        SourceIdentifier: instance.DBInstanceIdentifier,
        SourceType: input.SourceType ?? ('db-instance' as const),
        Message: change.summary,
        EventCategories: categoriesByKind[change.kind] ?? ['notification'],
        Date: new Date(change.timestamp),
        SourceArn: instance.DBInstanceArn,
      },
    ];
  });
  return { Events: events };
};

export const rdsEmulation: ServiceEmulation = { DescribeDBInstancesCommand: describeDBInstances, DescribeEventsCommand: describeEvents };
