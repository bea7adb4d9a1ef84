import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { brDate } from '@wa/domain';
import nodemailer, { type Transporter } from 'nodemailer';
import { DataSource } from 'typeorm';
import { BillingEnv } from '../config/env.js';
import { InvoicesRepository } from '../invoices/invoices.repository.js';
import { ChargesRepository } from './charges.repository.js';

const brl = (cents: number) => new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' }).format(cents / 100);

/** The payment's receipt, mailed to the company's billing email once. */
@Injectable()
export class Receipts {
  private readonly mailer: Transporter;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly charges: ChargesRepository,
    private readonly invoices: InvoicesRepository,
    private readonly env: BillingEnv,
  ) {
    this.mailer = nodemailer.createTransport(env.SMTP_URL, { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 });
  }

  /** 'sent', or why not ('no-email', 'already-sent', 'unknown'); a mail server's refusal throws (the job retries). */
  async send(paymentId: number): Promise<string> {
    const r = await this.charges.receipt(this.db.manager, paymentId);
    if (!r) return 'unknown';
    if (r.receiptSentAt) return 'already-sent';
    if (!r.email) return 'no-email';
    const paidAt = new Date(r.paidAt);
    await this.mailer.sendMail({
      from: this.env.MAIL_FROM,
      to: r.email,
      subject: `Recibo de pagamento — fatura ${r.invoiceId}`,
      text: [
        `Olá${r.name ? `, ${r.name}` : ''}!`,
        '',
        `Recebemos o pagamento da fatura ${r.invoiceId} (${r.detail}), com vencimento em ${brDate(r.dueDate)}.`,
        `Valor: ${brl(r.amountCents)}`,
        `Pago em: ${paidAt.toLocaleString('pt-BR', { timeZone: 'America/Sao_Paulo' })}`,
        `Identificador do Pix (E2E): ${r.endToEndId}`,
        '',
        'Obrigado!',
      ].join('\n'),
    });
    await this.db.transaction((tx) => this.invoices.markReceiptSent(tx, r.invoiceId));
    return 'sent';
  }
}
