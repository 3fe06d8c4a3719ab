/** An `incident.annotated` V3 webhook body in PagerDuty's documented shape: the note is the data. */
export const incidentAnnotated = (incidentId: string, content: string) => ({
  event: {
    id: '01DVUHO6P1R9ZIR1ZTCW0AY7ND',
    event_type: 'incident.annotated',
    resource_type: 'incident',
    occurred_at: '2026-05-02T13:20:04.000Z',
    agent: {
      html_url: 'https://acme-retail.pagerduty.com/users/PR7M2ZA',
      id: 'PR7M2ZA',
      self: 'https://api.pagerduty.com/users/PR7M2ZA',
      summary: 'Jonas Weber',
      type: 'user_reference',
    },
    client: null,
    data: {
      incident: {
        html_url: `https://acme-retail.pagerduty.com/incidents/${incidentId}`,
        id: incidentId,
        self: `https://api.pagerduty.com/incidents/${incidentId}`,
        summary: 'payment-service: authorization failure rate 88% (threshold 5%)',
        type: 'incident_reference',
      },
      id: 'P9L426X',
      content,
      trimmed: false,
      type: 'incident_note',
    },
  },
});

/** A fresh `incident.triggered` body for incident `incidentId`, from the bundled sample. */
export const incidentTriggered = (sample: Record<string, any>, incidentId: string, eventId: string) => {
  const body = structuredClone(sample);
  body.event.id = eventId;
  body.event.data.id = incidentId;
  return body;
};
