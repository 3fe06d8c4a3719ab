import { handle } from 'hono/aws-lambda';
import { createApp } from '../lib/api/app.ts';
import { apiPortsFromEnvironment } from './api-ports.ts';

/** API Gateway (REST, Lambda proxy integration) in front of the one HTTP app. */
export const handler = handle(createApp(apiPortsFromEnvironment()));
