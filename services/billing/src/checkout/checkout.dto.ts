import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { CHECKOUT_REQUIRED, CHECKOUT_COUNTRIES, type RequestDto, type SubscriptionRequest } from '@wa/contracts';
import { Type } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsNotEmpty, IsNumber, IsOptional, IsString, MaxLength, Min } from 'class-validator';

const required = (message: string) => [IsString({ message }), IsNotEmpty({ message }), MaxLength(200)];
const apply =
  (decorators: PropertyDecorator[]): PropertyDecorator =>
  (target, key) =>
    decorators.forEach((d) => d(target, key));
const optionalText = (max = 200) => apply([IsOptional(), IsString(), MaxLength(max)]);

/**
 * `POST /subscription` (spec 02 §3 "Subscription payload", §5 the checkout's required fields and texts). Card fields
 * are accepted (the anchors' form sends them) but never kept: the payment is a Pix. `price`, `users` and
 * `connections` are what the screen showed: the amount is the invoice's, or the chosen plan's price.
 */
export class SubscriptionDto implements RequestDto<SubscriptionDto, SubscriptionRequest> {
  @ApiProperty() @apply(required(CHECKOUT_REQUIRED.firstName)) firstName: string;
  @ApiPropertyOptional() @optionalText() lastName?: string;
  @ApiProperty() @apply(required(CHECKOUT_REQUIRED.address)) address: string;
  @ApiPropertyOptional() @optionalText() address2?: string;
  @ApiProperty() @apply(required(CHECKOUT_REQUIRED.city)) city: string;
  @ApiPropertyOptional() @optionalText(100) state?: string;
  @ApiProperty() @apply(required(CHECKOUT_REQUIRED.zipcode)) zipcode: string;
  @ApiProperty({ enum: CHECKOUT_COUNTRIES })
  @IsIn(CHECKOUT_COUNTRIES, { message: CHECKOUT_REQUIRED.country })
  country: string;
  @ApiPropertyOptional() @IsOptional() @IsBoolean() useAddressForPaymentDetails?: boolean;
  @ApiPropertyOptional() @optionalText() nameOnCard?: string;
  @ApiPropertyOptional() @optionalText(30) cardNumber?: string;
  @ApiPropertyOptional() @optionalText(10) cvv?: string;
  @ApiPropertyOptional({ description: 'the plan chosen: its id, or an object / JSON text with planId or id' })
  @IsOptional()
  plan?: number | string | { planId?: number; id?: number };
  @ApiPropertyOptional({ description: 'ignored: the amount is the invoice’s or the plan’s' }) @IsOptional() @IsNumber() price?: number;
  @ApiPropertyOptional({ description: 'ignored' }) @IsOptional() @IsNumber() users?: number;
  @ApiPropertyOptional({ description: 'ignored' }) @IsOptional() @IsNumber() connections?: number;
  @ApiProperty() @Type(() => Number) @IsInt() @Min(1) invoiceId: number;
}

/** The plan id a checkout names, or undefined (none, or not a plan id). */
export function chosenPlanId(plan: SubscriptionDto['plan']): number | undefined | null {
  if (plan === undefined || plan === null || plan === '') return undefined;
  let value: unknown = plan;
  if (typeof value === 'string') {
    const text = value.trim();
    if (/^\d+$/.test(text)) return Number(text);
    try {
      value = JSON.parse(text);
    } catch {
      return null;
    }
  }
  if (typeof value === 'number') return Number.isSafeInteger(value) && value > 0 ? value : null;
  if (value && typeof value === 'object') {
    const id = (value as { planId?: unknown; id?: unknown }).planId ?? (value as { id?: unknown }).id;
    const n = typeof id === 'string' && /^\d+$/.test(id) ? Number(id) : id;
    return typeof n === 'number' && Number.isSafeInteger(n) && n > 0 ? n : null;
  }
  return null;
}
