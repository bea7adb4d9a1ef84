import { IsIn, IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { InfraEnv, Secret } from '@wa/server-kit';

export class TicketsEnv extends InfraEnv {
  /** auth, asked for the company's plan counts when a connection or queue is created */
  @IsString()
  AUTH_URL: string = 'http://127.0.0.1:3101';

  override PORT: number = 3102;

  /** Inbound messages stored in one transaction at most. */
  @IsInt()
  @Min(1)
  @Max(500)
  INBOUND_BATCH_SIZE: number = 100;

  /**
   * Lanes of connections stored in parallel (each connection's messages in the order it published them, alone
   * or in batches of many conversations, in one lane). A batch costs
   * PostgreSQL about the same for one message as for fifty, so few lanes that fill their batches beat
   * many that store one message each: at 500 messages/s, 2 lanes halved the time to the socket against 8.
   * Since the bot answers in the lane, one lane does better still: its batches are twice as large, and
   * with 1,000 customers walking the bot's menu (bench:bot) tickets and PostgreSQL used 1.8 CPU-s less a
   * run (p99 of the reply 124 → 104 ms); at 500 messages/s (bench:inbound) they used 1.7 CPU-s less in
   * 10 s with the same time to the socket. What one lane costs is the top rate of a flood: 3,170 against
   * 3,530 messages/s stored by one replica (more replicas, or this setting, for more).
   */
  @IsInt()
  @Min(1)
  @Max(64)
  INBOUND_CONCURRENCY: number = 1;

  /**
   * How long the status changes of sent messages (ticks) are gathered before they are written together: the
   * changes of one message that come within it (server, then delivered, then read) become one write and one
   * event. bench:bot (the sandbox's 4 changes per send, 200 ms apart): at 250 ms a run wrote ~12,000 message
   * updates, at 1000 ms ~6,100, and its p99 was lower in 4 of 5 alternated rounds. A tick shows at most a
   * second late.
   */
  @IsInt()
  @Min(0)
  @Max(2000)
  ACK_LINGER_MS: number = 1000;

  /** How long JetStream waits for an ack before giving an inbound message to another process. */
  @IsInt()
  @Min(1000)
  INBOUND_ACK_WAIT_MS: number = 10000;

  /** Tries of a scheduled message before it is marked ERRO (with exponential back-off from SCHEDULE_BACKOFF_MS). */
  @IsInt()
  @Min(1)
  @Max(50)
  SCHEDULE_ATTEMPTS: number = 5;

  @IsInt()
  @Min(100)
  SCHEDULE_BACKOFF_MS: number = 10_000;

  /** How often jobs of overdue schedules are put back (Redis lost them); also how late such one may be. */
  @IsInt()
  @Min(1000)
  SCHEDULE_SWEEP_MS: number = 60_000;

  /** Today's dashboard figures and the open/pending counts are computed at most this often per company (0: every call). */
  @IsInt()
  @Min(0)
  @Max(300_000)
  DASHBOARD_LIVE_TTL_MS: number = 10_000;

  /**
   * Webhooks may go to private, loopback and link-local addresses (an operator's choice: a receiver on the
   * same network); off, such a URL is refused when saved and when delivering.
   */
  @IsIn(['true', 'false'])
  WEBHOOK_ALLOW_PRIVATE: 'true' | 'false' = 'false';

  /** First wait before a failed webhook delivery is tried again; it doubles per attempt, up to an hour. */
  @IsInt()
  @Min(10)
  WEBHOOK_BACKOFF_MS: number = 5_000;

  /** A delivery still failing this long after its event is given up (marked failed). */
  @IsInt()
  @Min(1000)
  WEBHOOK_GIVE_UP_MS: number = 24 * 3600_000;

  /** How often due deliveries are looked for (also right after a change that made some). */
  @IsInt()
  @Min(50)
  WEBHOOK_POLL_MS: number = 1_000;

  /**
   * Customer messages the former durable lane (`tickets-bot`) answers in one transaction while it is drained at
   * start; the inbound path answers each stored batch in one.
   */
  @IsInt()
  @Min(1)
  @Max(500)
  BOT_BATCH_SIZE: number = 100;

  /** How often idle tickets are looked for and closed (a connection's expiresTicket, in minutes). */
  @IsInt()
  @Min(1000)
  TICKET_EXPIRY_SWEEP_MS: number = 60_000;

  /** How often the message search index's pending list is merged apart from the inserts (SearchIndexMerge). */
  @IsInt()
  @Min(100)
  @Max(60_000)
  MESSAGE_SEARCH_MERGE_MS: number = 1000;

  /**
   * Encrypts the secrets tickets keeps at rest (AI prompts' API keys, Dialogflow credentials; AES-256-GCM).
   * Required in production; elsewhere derived from JWT_SECRET. Changing it makes stored secrets unreadable.
   */
  @Secret({ requiredInProduction: true })
  @IsOptional()
  @IsString()
  TICKETS_SECRETS_KEY?: string;

  /** The OpenAI-compatible API the prompts talk to (any compatible server) and the model asked. */
  @IsString()
  OPENAI_BASE_URL: string = 'https://api.openai.com/v1';

  @IsString()
  OPENAI_MODEL: string = 'gpt-4o-mini';

  /** The API key used when a prompt has none of its own. */
  @IsString()
  OPENAI_API_KEY: string = '';

  /** How long a model may take to answer before the ticket goes to the queue's agents. */
  @IsInt()
  @Min(500)
  OPENAI_TIMEOUT_MS: number = 15_000;

  /** How long a queue integration (webhook, n8n, Typebot) may take to answer before the ticket goes to the queue's agents. */
  @IsInt()
  @Min(200)
  INTEGRATION_TIMEOUT_MS: number = 10_000;

  /**
   * Where Dialogflow integrations talk: empty for Google's own endpoint; `http(s)://host:port` for a stand-in
   * (the tests' local peer). An operator's setting, never an integration's.
   */
  @IsString()
  DIALOGFLOW_API_ENDPOINT: string = '';
}
