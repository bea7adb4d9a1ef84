import { hourIn } from '@wa/domain';

/** "Bom dia/Boa tarde/Boa noite" by the hour on the company's clocks (its `timezone` setting). */
export function greetingOnAccept(contactName: string, userName: string, timeZone: string, now: Date = new Date()): string {
  const hour = hourIn(timeZone, now);
  const ms = hour < 12 ? 'Bom dia' : hour < 18 ? 'Boa tarde' : 'Boa noite';
  const firstName = contactName.trim().split(/\s+/)[0] ?? '';
  return `${ms} *${firstName}*, meu nome é *${userName}* e agora vou prosseguir com seu atendimento!`;
}
