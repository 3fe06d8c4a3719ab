/**
 * What the AWS tools know about a service: the resources that make it up, found by tags (Resource
 * Groups Tagging API), naming conventions (`/aws/lambda/<fn>`, ECS `awslogs` configuration) and
 * settings. Every AWS tool maps between service names (what the model and the contracts speak) and
 * resources (what the APIs speak) through it.
 */
export interface ServiceResources {
  name: string;
  kind?: string;
  /** The ARNs tagged with this service, or named after it. */
  arns: string[];
  tags: Record<string, string>;
  /** Log groups holding this service's logs. */
  logGroups: string[];
  /** Metric dimensions that identify this service's resources (e.g. `FunctionName`, `ServiceName`, `DBInstanceIdentifier`). */
  dimensions: Record<string, string>[];
}

export interface ServiceCatalog {
  services(): Promise<ServiceResources[]>;
  /** The service a resource belongs to: by ARN, by a metric's dimensions, or by a log group. */
  serviceOfArn(arn: string): Promise<string | undefined>;
  serviceOfDimensions(dimensions: Record<string, string>): Promise<string | undefined>;
  serviceOfLogGroup(logGroup: string): Promise<string | undefined>;
}
