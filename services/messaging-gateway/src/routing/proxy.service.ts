import { Injectable, Logger } from '@nestjs/common';
import { createProxyMiddleware, type RequestHandler } from 'http-proxy-middleware';
import type { ClientRequest, IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import proxyAddr from 'proxy-addr';
import { toErrorBody, trustedProxies } from '@wa/server-kit';
import { DomainError } from '@wa/server-kit';
import { GatewayEnv } from '../config/env.js';
import type { ServiceName } from './route-table.js';
import { UpstreamPool } from './upstream-pool.js';

/** A request whose body the gateway counts as it streams (GatewayMiddleware sets the cap). */
export type CappedRequest = IncomingMessage & { bodyCap?: { bytes: number; text: string } };
/** `upstream`: the replica a call to a pool went to */
type Req = CappedRequest & { id?: string; upstream?: string };

/** One proxy per owning service; a service that does not answer → 503 naming it. */
@Injectable()
export class ProxyService {
  private readonly logger = new Logger(ProxyService.name);
  readonly targets: Record<ServiceName, string>;
  /** whatsapp-sessions' replicas when it runs as several plain processes (one address otherwise) */
  readonly sessions: UpstreamPool;
  private readonly proxies = new Map<ServiceName, RequestHandler>();
  /** whose X-Forwarded-For the gateway believes (TRUSTED_PROXIES) */
  private readonly trust: (addr: string, i: number) => boolean;

  constructor(env: GatewayEnv) {
    const trusted = trustedProxies(env);
    this.trust = trusted ? proxyAddr.compile(trusted) : () => false;
    this.sessions = new UpstreamPool(env.WHATSAPP_SESSIONS_URL);
    this.targets = {
      auth: env.AUTH_URL,
      tickets: env.TICKETS_URL,
      'whatsapp-sessions': this.sessions.urls[0] as string,
      campaigns: env.CAMPAIGNS_URL,
      billing: env.BILLING_URL,
      'realtime-gateway': env.REALTIME_URL,
    };
    for (const [service, target] of Object.entries(this.targets) as Array<[ServiceName, string]>) {
      this.proxies.set(service, this.create(service, target));
    }
  }

  handler(service: ServiceName): RequestHandler {
    const proxy = this.proxies.get(service);
    if (!proxy) throw new Error(`no proxy for ${service}`);
    return proxy;
  }

  private create(service: ServiceName, target: string): RequestHandler {
    const pool = service === 'whatsapp-sessions' && this.sessions.urls.length > 1 ? this.sessions : undefined;
    return createProxyMiddleware<Req, ServerResponse>({
      target,
      // any replica answers (each carries a command to the replica holding the session)
      ...(pool
        ? {
            router: (req: Req) => {
              req.upstream = pool.pick();
              return req.upstream;
            },
          }
        : {}),
      changeOrigin: false,
      xfwd: true,
      ws: service === 'realtime-gateway',
      // an answer the service does not finish within a minute ends the call (a 503 for the caller). No timeout
      // on the caller's side here: the proxy sets it per request on the caller's connection, adding a listener
      // (and the request it holds) each time, kept until a kept-alive connection closes; the HTTP server's own
      // limits (headers and request time, kept-alive idle time) cover a caller who stalls
      proxyTimeout: 60_000,
      logger: undefined,
      on: {
        proxyReq: (proxyReq, req, res) => {
          if (req.id) proxyReq.setHeader('x-request-id', req.id);
          if (req.bodyCap) capBody(proxyReq, req, res, req.bodyCap);
          // the services see one address: the client's as far as trusted proxies vouch for it, never a
          // header an untrusted client made up
          proxyReq.setHeader('x-forwarded-for', this.clientAddress(req));
        },
        proxyReqWs: (proxyReq, req) => {
          proxyReq.setHeader('x-forwarded-for', this.clientAddress(req));
        },
        error: (err, req, res) => {
          this.logger.warn({ service, err: (err as Error).message, requestId: req.id }, 'service unavailable');
          if (pool && req.upstream) pool.down(req.upstream);
          if (isSocket(res)) {
            res.destroy();
            return;
          }
          if (res.headersSent) {
            res.end();
            return;
          }
          const body = toErrorBody(
            new DomainError('ERR_SERVICE_UNAVAILABLE', { service }, `The ${service} service is unavailable.`),
            req.id,
          );
          res.writeHead(503, { 'content-type': 'application/json; charset=utf-8', 'retry-after': '5' });
          res.end(JSON.stringify(body));
        },
      },
    });
  }

  /** The client's address, as far as trusted proxies vouch for it (never a header an untrusted client made up). */
  clientAddress(req: IncomingMessage): string {
    return proxyAddr(req, this.trust);
  }

  upgrade(req: IncomingMessage, socket: Socket, head: Buffer): void {
    this.handler('realtime-gateway').upgrade(req, socket, head);
  }
}

/**
 * Counts the body's bytes as they pass to the service, whatever its Content-Length said or whether it said
 * none (chunked): the moment they pass the cap, the service's request is cut off (it never sees the body's
 * end, so it stores nothing) and the caller gets 413; what it still sends is read and dropped. Bound before
 * the proxy pipes the body (this runs in its proxyReq event), so no chunk goes by uncounted.
 */
function capBody(proxyReq: ClientRequest, req: Req, res: ServerResponse, cap: { bytes: number; text: string }): void {
  let seen = 0;
  const onData = (chunk: Buffer) => {
    seen += chunk.length;
    if (seen <= cap.bytes) return;
    req.off('data', onData);
    req.unpipe(proxyReq);
    proxyReq.destroy();
    if (!res.headersSent) {
      const body = toErrorBody(new DomainError('ERR_PAYLOAD_TOO_LARGE', { limit: cap.text }), req.id);
      res.writeHead(413, { 'content-type': 'application/json; charset=utf-8', connection: 'close' });
      res.end(JSON.stringify(body));
    }
    req.resume();
  };
  req.on('data', onData);
}

function isSocket(res: ServerResponse | Socket): res is Socket {
  return !('writeHead' in res);
}
