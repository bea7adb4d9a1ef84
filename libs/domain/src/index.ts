export * from './phone/phone-number.js';
export * from './phone/message-id.js';
export * from './phone/lid.js';
export * from './time/company-time.js';
export * from './time/working-hours.js';
export * from './pix/br-code.js';
