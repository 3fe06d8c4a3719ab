import type { GetResourcesCommandInput, GetResourcesCommandOutput, ResourceTagMapping } from '@aws-sdk/client-resource-groups-tagging-api';
import type { RecordedEnvironment } from '../../scenario/recorded-environment.ts';
import { serviceException, type ServiceEmulation } from './emulator.ts';
import { emulatedLogGroups } from './log-groups.ts';
import { emulatedAccount, emulatedRegion, serviceArnOf } from './service-identity.ts';

/** Small pages, so the catalog's pagination really runs. */
const RESOURCES_PER_PAGE = 4;

/**
 * The account's tagged resources: each scenario service's own resource (its ARN, or the one its
 * kind implies) and its log groups, tagged with the asked-for service tag naming the service, plus
 * the service's own tags.
 */
const taggedResources = (environment: RecordedEnvironment, serviceTag: string): ResourceTagMapping[] => {
  const region = emulatedRegion(environment);
  const account = emulatedAccount(environment);
  const logGroups = emulatedLogGroups(environment);
  const names = [...new Set([...environment.services.map((service) => service.name), ...logGroups.keys()])];
  return names.flatMap((name) => {
    const spec = environment.services.find((service) => service.name === name);
    const tags = [...Object.entries(spec?.tags ?? {}).filter(([key]) => key !== serviceTag), [serviceTag, name]].map(([Key, Value]) => ({ Key, Value }));
    const arn = spec ? serviceArnOf(environment, spec) : undefined;
    return [
      ...(arn ? [{ ResourceARN: arn, Tags: tags }] : []),
      ...(logGroups.get(name) ?? []).map((group) => ({ ResourceARN: `arn:aws:logs:${region}:${account}:log-group:${group}`, Tags: [{ Key: serviceTag, Value: name }] })),
    ];
  });
};

const getResources = (input: GetResourcesCommandInput, environment: RecordedEnvironment): Omit<GetResourcesCommandOutput, '$metadata'> => {
  const keys = (input.TagFilters ?? []).map((filter) => filter.Key).filter((key): key is string => key !== undefined);
  const [serviceTag] = keys;
  if (!serviceTag) throw serviceException('InvalidParameterException', 'the emulation answers GetResources filtered by the service tag key only');
  const all = taggedResources(environment, serviceTag);
  const start = input.PaginationToken ? Number(input.PaginationToken) : 0;
  if (!Number.isInteger(start) || start < 0 || start > all.length) throw serviceException('PaginationTokenExpiredException', `invalid PaginationToken ${input.PaginationToken}`);
  const pageSize = Math.min(input.ResourcesPerPage ?? 100, RESOURCES_PER_PAGE);
  const end = start + pageSize;
  return { ResourceTagMappingList: all.slice(start, end), PaginationToken: end < all.length ? String(end) : '' };
};

export const taggingEmulation: ServiceEmulation = { GetResourcesCommand: getResources };
