import { ApiProperty } from '@nestjs/swagger';
import { CAMPAIGN_INTERVALS, type CampaignSettingsBody, type CampaignVariable, type RequestDto } from '@wa/contracts';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsNotEmpty,
  IsNotEmptyObject,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';

/** How many variables a company keeps (the settings screen's table). */
export const MAX_CAMPAIGN_VARIABLES = 100;

export class CampaignVariableDto implements RequestDto<CampaignVariableDto, CampaignVariable> {
  /** the shortcut written as `{key}` in a message: letters, digits, `_` and `-` */
  @ApiProperty({ maxLength: 40 })
  @IsString({ message: 'Required' })
  @IsNotEmpty({ message: 'Required' })
  @MaxLength(40, { message: 'Too Long!' })
  @Matches(/^[\p{L}\p{N}_-]+$/u, { message: 'Only letters, digits, _ and -' })
  key: string;

  @ApiProperty({ maxLength: 1000 })
  @IsString({ message: 'Required' })
  @MaxLength(1000, { message: 'Too Long!' })
  value: string;
}

export class CampaignSettingsValuesDto implements RequestDto<CampaignSettingsValuesDto, CampaignSettingsBody['settings']> {
  @ApiProperty({ enum: CAMPAIGN_INTERVALS.messageInterval.options })
  @IsIn(CAMPAIGN_INTERVALS.messageInterval.options)
  messageInterval: number;

  @ApiProperty({ enum: CAMPAIGN_INTERVALS.longerIntervalAfter.options })
  @IsIn(CAMPAIGN_INTERVALS.longerIntervalAfter.options)
  longerIntervalAfter: number;

  @ApiProperty({ enum: CAMPAIGN_INTERVALS.greaterInterval.options })
  @IsIn(CAMPAIGN_INTERVALS.greaterInterval.options)
  greaterInterval: number;

  @ApiProperty({ type: [CampaignVariableDto] })
  @IsArray()
  @ArrayMaxSize(MAX_CAMPAIGN_VARIABLES)
  @ValidateNested({ each: true })
  @Type(() => CampaignVariableDto)
  variables: CampaignVariableDto[];

  /** whole messages that opt a contact out of the company's campaigns; absent: the list stays as it is */
  @ApiProperty({ type: [String], required: false, example: ['SAIR', 'PARAR'] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @IsString({ each: true })
  @IsNotEmpty({ each: true, message: 'Required' })
  @MaxLength(30, { each: true, message: 'Too Long!' })
  optOutKeywords?: string[];
}

/** POST /campaign-settings: the body the original client sends. */
export class CampaignSettingsBodyDto implements RequestDto<CampaignSettingsBodyDto, CampaignSettingsBody> {
  @ApiProperty({ type: CampaignSettingsValuesDto })
  @IsNotEmptyObject()
  @ValidateNested()
  @Type(() => CampaignSettingsValuesDto)
  settings: CampaignSettingsValuesDto;
}
