#!/usr/bin/env node
// Serves the built web app (web/dist) on WEB_PORT: static files, the SPA fallback, and /config.js with the
// API host the browser talks to (the app proxies nothing itself). Started by `npm start`.
import express from 'express';
import helmet from 'helmet';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { GATEWAY_PORT, root, WEB_PORT } from './lib/run.mjs';

const dist = join(root, 'web/dist');
if (!existsSync(join(dist, 'index.html'))) {
  process.stderr.write('web: web/dist/index.html is missing; build it with `npx nx run web:build`\n');
  process.exit(1);
}
const apiUrl = process.env.PUBLIC_API_URL ?? `http://localhost:${GATEWAY_PORT}`;
const app = express();
app.disable('x-powered-by');
// the console's security headers (as deploy/nginx/web.conf sends them): scripts only from here, never framed
const api = new URL(apiUrl);
app.use(
  helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', 'https:', api.origin],
        mediaSrc: ["'self'", 'blob:', 'https:', api.origin],
        connectSrc: ["'self'", api.origin, `${api.protocol === 'https:' ? 'wss' : 'ws'}://${api.host}`],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  }),
);
app.get('/config.js', (_req, res) => {
  res
    .type('application/javascript')
    .set('cache-control', 'no-store')
    .send(`window.__CONVERSA__ = ${JSON.stringify({ apiUrl })};\n`);
});
app.get('/health', (_req, res) => res.json({ status: 'ok' }));
// hashed assets are immutable; index.html never cached
app.use('/assets', express.static(join(dist, 'assets'), { immutable: true, maxAge: '1y', fallthrough: false }));
app.use(express.static(dist, { index: false, maxAge: 0 }));
app.use((req, res) => {
  if (req.method !== 'GET') return res.status(404).json({ error: 'ERR_NOT_FOUND' });
  res.set('cache-control', 'no-store').sendFile(join(dist, 'index.html'));
});
const server = app.listen(WEB_PORT, process.env.HOST ?? '127.0.0.1', () => {
  process.stdout.write(
    `${JSON.stringify({ level: 30, service: 'web', msg: 'web listening', url: `http://localhost:${WEB_PORT}`, apiUrl })}\n`,
  );
});
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.once(signal, () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
    // it serves files only: a response still being written when it stops is not worth waiting for
    setTimeout(() => process.exit(0), 1000).unref();
  });
}
