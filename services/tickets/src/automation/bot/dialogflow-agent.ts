import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import type dialogflowLib from '@google-cloud/dialogflow';
import { withDeadline } from '@wa/server-kit';
import { createHash } from 'node:crypto';
import { TicketsEnv } from '../../config/env.js';
import type { QueueIntegrationEntity } from '../../database/entities/index.js';
import { dialogflowCredentials } from '../queue-integrations/queue-integrations.service.js';
import type { AgentAnswer, FlowMessage } from './agent-answer.js';

type SessionsClient = InstanceType<typeof dialogflowLib.v2.SessionsClient>;

/** The official client, loaded on the first Dialogflow conversation (a service without any pays nothing for it). */
let library: Promise<typeof dialogflowLib> | undefined;
const loadLibrary = () => (library ??= import('@google-cloud/dialogflow').then((m) => m.default));

/** Clients kept at most (one per integration and credentials; each holds its loaded API description). */
const MAX_CLIENTS = 50;

/** Where the client talks: Google's endpoint, or DIALOGFLOW_API_ENDPOINT (`http(s)://host:port`, a stand-in). */
export function dialogflowEndpoint(setting: string): { apiEndpoint?: string; port?: number; protocol?: string } {
  if (!setting.trim()) return {};
  const url = new URL(setting);
  return {
    apiEndpoint: url.hostname,
    port: Number(url.port || (url.protocol === 'http:' ? 80 : 443)),
    protocol: url.protocol.replace(':', ''),
  };
}

/**
 * Every HTTP request of the client ends within `ms`, its answer's body included: the client over HTTPS/JSON
 * (`fallback`) sends each call through its auth object's `fetch` with no timeout of its own, and cancelling a
 * call does not reach it, so a peer trickling its answer would hold the socket (and what it read) forever.
 */
function deadlineOnEveryRequest(client: SessionsClient, ms: number): void {
  type Fetch = (input: unknown, init?: RequestInit) => Promise<unknown>;
  const auth = (client as unknown as { auth?: { fetch?: Fetch } }).auth;
  const fetch = auth?.fetch?.bind(auth);
  if (!auth || !fetch) return;
  auth.fetch = (input, init = {}) => {
    const deadline = AbortSignal.timeout(ms);
    return fetch(input, { ...init, signal: init.signal ? AbortSignal.any([init.signal, deadline]) : deadline });
  };
}

/**
 * A queue's Dialogflow (ES, v2) agent answering its customer through the official client
 * (`@google-cloud/dialogflow`, over HTTPS/JSON), with the integration's service-account credentials
 * (opened from their sealed form), its project and its language. One Dialogflow session per ticket. The
 * matched intent's texts go to the customer; an intent that ends the interaction hands the conversation to
 * the queue's agents after its texts, and so does an answer with no text, a failure or no answer within
 * INTEGRATION_TIMEOUT_MS (one retry; each try cancelled at that deadline, whatever the client's own
 * timeouts do): the customer is never left unanswered. The client reads Google's answer (or the operator's
 * DIALOGFLOW_API_ENDPOINT) itself: no byte cap is put on it, only the deadline.
 */
@Injectable()
export class DialogflowAgent implements OnApplicationShutdown {
  private readonly logger = new Logger(DialogflowAgent.name);
  private readonly clients = new Map<string, SessionsClient>();

  constructor(private readonly env: TicketsEnv) {}

  async onApplicationShutdown(): Promise<void> {
    await Promise.all([...this.clients.values()].map((c) => c.close().catch(() => undefined)));
    this.clients.clear();
  }

  async answer(integration: QueueIntegrationEntity, credentialsJson: string | null, m: FlowMessage): Promise<AgentAnswer> {
    const credentials = credentialsJson ? dialogflowCredentials(credentialsJson) : null;
    if (!credentials) return { kind: 'hand-over', reason: 'the Dialogflow credentials are missing or unreadable' };
    const projectId = integration.projectName || credentials.project_id || '';
    const client = await this.client(integration.id, credentialsJson as string, credentials, projectId);
    const session = client.projectAgentSessionPath(projectId, `conversa-${m.companyId}-${m.ticketId}`);
    const request = { session, queryInput: { text: { text: m.body.slice(0, 256), languageCode: integration.language || 'pt-BR' } } };
    let last: unknown;
    for (let attempt = 1; attempt <= 2; attempt++) {
      try {
        const [response] = await withDeadline(this.env.INTEGRATION_TIMEOUT_MS, (signal) => {
          const call = client.detectIntent(request, { timeout: this.env.INTEGRATION_TIMEOUT_MS, retry: null });
          signal.addEventListener('abort', () => (call as { cancel?: () => void }).cancel?.(), { once: true });
          return call;
        });
        const result = response.queryResult;
        const texts = (result?.fulfillmentMessages ?? [])
          .flatMap((msg) => msg.text?.text ?? [])
          .map((t) => (t ?? '').trim())
          .filter(Boolean);
        if (texts.length === 0 && result?.fulfillmentText?.trim()) texts.push(result.fulfillmentText.trim());
        if (texts.length === 0) return { kind: 'hand-over', reason: 'Dialogflow answered nothing' };
        return { kind: 'reply', texts, handOver: Boolean(result?.intent?.endInteraction) };
      } catch (err) {
        last = err;
      }
    }
    throw last instanceof Error ? last : new Error('Dialogflow did not answer');
  }

  private async client(
    id: number,
    json: string,
    credentials: { client_email: string; private_key: string },
    projectId: string,
  ): Promise<SessionsClient> {
    const key = `${id}:${createHash('sha256').update(json).digest('hex')}`;
    const known = this.clients.get(key);
    if (known) return known;
    if (this.clients.size >= MAX_CLIENTS) {
      const [oldKey, old] = this.clients.entries().next().value as [string, SessionsClient];
      this.clients.delete(oldKey);
      void old.close().catch(() => undefined);
    }
    const dialogflow = await loadLibrary();
    const again = this.clients.get(key);
    if (again) return again;
    const client = new dialogflow.v2.SessionsClient({
      credentials: { client_email: credentials.client_email, private_key: credentials.private_key },
      projectId,
      fallback: true,
      ...dialogflowEndpoint(this.env.DIALOGFLOW_API_ENDPOINT),
    });
    deadlineOnEveryRequest(client, this.env.INTEGRATION_TIMEOUT_MS);
    this.clients.set(key, client);
    this.logger.log({ integration: id, projectId }, 'dialogflow: client ready');
    return client;
  }
}
