import { Injectable } from '@nestjs/common';
import type { MessageEvent } from '@wa/contracts';
import { BotService } from './bot/bot.service.js';

export { BOT_DONE } from './bot/bot.queries.js';

/**
 * What the rest of tickets may ask of automation: the inbound lane hands it the customer messages it has just
 * stored and announced (`message.created` payloads), and the bot answers them. `done`: the tickets the lane
 * already read as ones the bot is done with (BOT_DONE, read with the tickets it announced).
 */
@Injectable()
export class AutomationFacade {
  constructor(private readonly bot: BotService) {}

  answerStored(events: readonly MessageEvent[], done?: ReadonlySet<number>): Promise<void> {
    return this.bot.answerStored(events, done);
  }
}
