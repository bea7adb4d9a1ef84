#!/usr/bin/env node
// The local mail catcher `npm start` runs: an SMTP server on 127.0.0.1:1025 (auth's SMTP_URL default) that
// keeps the last 200 messages in memory, and their inbox on http://127.0.0.1:1080 (newest first; /health;
// /messages.json). Nothing leaves the machine: password-reset codes of the demo are read here.
import http from 'node:http';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

const SMTP_PORT = Number(process.env.MAIL_SMTP_PORT ?? 1025);
const PORT = Number(process.env.PORT ?? 1080);
const KEEP = 200;
const messages = [];

const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  size: 10 * 1024 * 1024,
  async onData(stream, session, callback) {
    try {
      const mail = await simpleParser(stream);
      messages.unshift({
        at: new Date().toISOString(),
        from: mail.from?.text ?? session.envelope.mailFrom?.address ?? '',
        to: session.envelope.rcptTo.map((r) => r.address).join(', '),
        subject: mail.subject ?? '',
        text: mail.text ?? '',
      });
      messages.length = Math.min(messages.length, KEEP);
      callback();
    } catch (err) {
      callback(err);
    }
  },
});

const esc = (s) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const page = () => `<!doctype html><meta charset="utf-8"><title>Conversa — caixa de email local</title>
<style>body{font:14px system-ui,sans-serif;margin:2rem;max-width:60rem}article{border:1px solid #ccc;border-radius:6px;padding:1rem;margin:1rem 0}pre{white-space:pre-wrap}small{color:#666}</style>
<h1>Caixa de email local (${messages.length})</h1><p><small>SMTP em 127.0.0.1:${SMTP_PORT}; recarregue para ver novas mensagens.</small></p>
${messages.map((m) => `<article><strong>${esc(m.subject)}</strong><br><small>${esc(m.at)} — de ${esc(m.from)} para ${esc(m.to)}</small><pre>${esc(m.text)}</pre></article>`).join('') || '<p>Nenhuma mensagem.</p>'}`;

const web = http.createServer((req, res) => {
  if (req.url === '/health') return res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
  if (req.url === '/messages.json') return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(messages));
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page());
});

smtp.listen(SMTP_PORT, '127.0.0.1');
web.listen(PORT, '127.0.0.1');
// smtp-server waits up to 30 s for its clients to leave, and a kept-alive reader may hold the page open. This
// stand-in keeps nothing worth waiting for, so it exits after a second whoever is still connected
const stop = () => {
  smtp.close(() => web.close(() => process.exit(0)));
  web.closeAllConnections();
  setTimeout(() => process.exit(0), 1000).unref();
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
