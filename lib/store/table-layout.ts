/** The single table's key layout, shared by the CDK stack and the local runner. */
export const tableLayout = {
  partitionKey: 'pk',
  sortKey: 'sk',
  listIndex: { name: 'byCreatedAt', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
  ttlAttribute: 'expiresAt',
} as const;
