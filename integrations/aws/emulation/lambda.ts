import type {
  FunctionConfiguration,
  GetFunctionConcurrencyCommandInput,
  GetFunctionConcurrencyCommandOutput,
  GetFunctionConfigurationCommandInput,
  GetFunctionConfigurationCommandOutput,
  ListAliasesCommandInput,
  ListAliasesCommandOutput,
  ListVersionsByFunctionCommandInput,
  ListVersionsByFunctionCommandOutput,
} from '@aws-sdk/client-lambda';
import { toMillis } from '../../../lib/domain/time.ts';
import type { RecordedEnvironment } from '../../scenario/recorded-environment.ts';
import { serviceException, type Answer, type ServiceEmulation } from './emulator.ts';
import { serviceArnOf, serviceOfIdentifier } from './service-identity.ts';

/** Small pages, so the tool's Marker pagination really runs. */
const VERSIONS_PER_PAGE = 2;
const HISTORY_MINUTES = 365 * 24 * 60;

/** Lambda writes its timestamps as `2026-04-06T04:00:10.000+0000`. */
const lambdaTime = (millis: number): string => new Date(millis).toISOString().replace('Z', '+0000');

const functionOf = (environment: RecordedEnvironment, identifier: string | undefined) => {
  // `arn:aws:lambda:<region>:<account>:function:<name>[:<qualifier>]`, or the bare name.
  const name = identifier?.startsWith('arn:') ? (identifier.split(':')[6] ?? identifier) : (identifier ?? '');
  const spec = serviceOfIdentifier(environment, name);
  if (!spec || spec.kind !== 'lambda') throw serviceException('ResourceNotFoundException', `Function not found: ${identifier}`, 404);
  return { spec, arn: serviceArnOf(environment, spec) ?? name };
};

const changesOf = (environment: RecordedEnvironment, service: string) => environment.changes(HISTORY_MINUTES).filter((change) => change.service === service);

/**
 * Each recorded deploy of the function published a version; its number is the one the change names, else the next.
 * The version a deploy moved the alias away from (`details.previousVersion`) was published before the recording began.
 */
const versionsOf = (environment: RecordedEnvironment, service: string, arn: string): FunctionConfiguration[] => {
  let previous = 0;
  const deploys = changesOf(environment, service).filter((change) => change.kind === 'deploy');
  const before = Number(deploys[0]?.details?.previousVersion);
  const earlier: FunctionConfiguration[] = Number.isInteger(before) && before > 0 ? [{ FunctionName: service, FunctionArn: `${arn}:${before}`, Version: String(before) }] : [];
  if (earlier.length > 0) previous = before;
  return [
    ...earlier,
    ...deploys.map((change) => {
      const named = Number(/version (\d+)/i.exec(change.summary)?.[1] ?? Number.NaN);
      const version = Number.isInteger(named) && named > previous ? named : previous + 1;
      previous = version;
      return { FunctionName: service, FunctionArn: `${arn}:${version}`, Version: String(version), LastModified: lambdaTime(toMillis(change.timestamp)), Description: change.summary };
    }),
  ];
};

const parametersOf = (details: Record<string, unknown> | undefined): Record<string, unknown> => {
  const given = details?.requestParameters;
  return typeof given === 'object' && given !== null ? (given as Record<string, unknown>) : {};
};

const configurationOf = (environment: RecordedEnvironment, identifier: string | undefined): FunctionConfiguration => {
  const { spec, arn } = functionOf(environment, identifier);
  const changes = changesOf(environment, spec.name);
  const settings = Object.assign({}, ...changes.map((change) => parametersOf(change.details))) as Record<string, unknown>;
  const last = changes.at(-1);
  return {
    FunctionName: spec.name,
    FunctionArn: arn,
    Version: '$LATEST',
    State: 'Active',
    LastUpdateStatus: 'Successful',
    ...(last ? { LastModified: lambdaTime(toMillis(last.timestamp)) } : {}),
    ...(typeof settings.timeout === 'number' ? { Timeout: settings.timeout } : {}),
    ...(typeof settings.memorySize === 'number' ? { MemorySize: settings.memorySize } : {}),
  };
};

const listVersions = (input: ListVersionsByFunctionCommandInput, environment: RecordedEnvironment): Answer<ListVersionsByFunctionCommandOutput> => {
  const { spec, arn } = functionOf(environment, input.FunctionName);
  const all = [configurationOf(environment, input.FunctionName), ...versionsOf(environment, spec.name, arn)];
  const start = input.Marker === undefined ? 0 : Number(input.Marker);
  const end = start + Math.min(input.MaxItems ?? 50, VERSIONS_PER_PAGE);
  return { Versions: all.slice(start, end), ...(end < all.length ? { NextMarker: String(end) } : {}) };
};

const listAliases = (input: ListAliasesCommandInput, environment: RecordedEnvironment): Answer<ListAliasesCommandOutput> => {
  const { spec, arn } = functionOf(environment, input.FunctionName);
  const latest = versionsOf(environment, spec.name, arn).at(-1);
  return { Aliases: latest ? [{ AliasArn: `${arn}:live`, Name: 'live', FunctionVersion: latest.Version }] : [] };
};

const getFunctionConfiguration = (input: GetFunctionConfigurationCommandInput, environment: RecordedEnvironment): Answer<GetFunctionConfigurationCommandOutput> =>
  configurationOf(environment, input.FunctionName);

/** Reserved concurrency is what the last PutFunctionConcurrency the scenario records set. */
const getFunctionConcurrency = (input: GetFunctionConcurrencyCommandInput, environment: RecordedEnvironment): Answer<GetFunctionConcurrencyCommandOutput> => {
  const { spec } = functionOf(environment, input.FunctionName);
  const reserved = changesOf(environment, spec.name)
    .map((change) => parametersOf(change.details).reservedConcurrentExecutions)
    .filter((value): value is number => typeof value === 'number')
    .at(-1);
  return reserved === undefined ? {} : { ReservedConcurrentExecutions: reserved };
};

export const lambdaEmulation: ServiceEmulation = {
  ListVersionsByFunctionCommand: listVersions,
  ListAliasesCommand: listAliases,
  GetFunctionConfigurationCommand: getFunctionConfiguration,
  GetFunctionConcurrencyCommand: getFunctionConcurrency,
};
