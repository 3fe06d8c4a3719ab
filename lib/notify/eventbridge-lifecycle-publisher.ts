import { PutEventsCommand, type EventBridgeClient } from '@aws-sdk/client-eventbridge';
import type { LifecycleEvent, LifecyclePublisher } from '../triggers/lifecycle.ts';

export const LIFECYCLE_EVENT_SOURCE = 'sre-agent';

/** Puts lifecycle events on an EventBridge bus: source `sre-agent`, detail-type the lifecycle type. */
export class EventBridgeLifecyclePublisher implements LifecyclePublisher {
  constructor(
    private readonly client: EventBridgeClient,
    private readonly busName: string,
  ) {}

  async publish(event: LifecycleEvent): Promise<void> {
    const result = await this.client.send(
      new PutEventsCommand({
        Entries: [
          {
            EventBusName: this.busName,
            Source: LIFECYCLE_EVENT_SOURCE,
            DetailType: event.type,
            Detail: JSON.stringify({ investigationId: event.investigationId, ...event.detail }),
          },
        ],
      }),
    );
    if ((result.FailedEntryCount ?? 0) > 0) {
      throw new Error(`EventBridge refused ${event.type} for ${event.investigationId}: ${result.Entries?.[0]?.ErrorMessage ?? 'no reason given'}`);
    }
  }
}
