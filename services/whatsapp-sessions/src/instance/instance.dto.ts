import { ApiProperty } from '@nestjs/swagger';
import type {
  ApiInstanceActionDto,
  ApiInstanceDto,
  ApiInstanceQrcodeDto,
  ApiPairingCodeDto,
  ApiPairingCodeRequest,
  ConnectionStatus,
  RequestDto,
} from '@wa/contracts';
import { IsString, Matches } from 'class-validator';

const STATUSES: ConnectionStatus[] = ['OPENING', 'qrcode', 'PAIRING', 'CONNECTED', 'DISCONNECTED', 'TIMEOUT'];

/** `POST /api/v1/instance/pairing-code`: the phone to pair with a code instead of the QR. */
export class ApiPairingCodeBody implements RequestDto<ApiPairingCodeBody, ApiPairingCodeRequest> {
  @ApiProperty({ example: '5511999990001', description: "the phone's number: digits with the country code, 10 to 15" })
  @IsString({ message: 'Required' })
  @Matches(/^\d{10,15}$/, { message: "number must be the phone's number with its country code: 10 to 15 digits" })
  number: string;
}

/** The instance (the token's connection), for OpenAPI. */
export class ApiInstanceView implements ApiInstanceDto {
  @ApiProperty({ example: 3 }) id: number;
  @ApiProperty({ example: 'Vendas' }) name: string;
  @ApiProperty({ enum: STATUSES, example: 'CONNECTED' }) status: ConnectionStatus;
  @ApiProperty({ type: String, nullable: true, example: '5511999990001', description: 'the paired phone, null before a pairing' })
  number: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'the QR code to scan while the status is qrcode, null otherwise' })
  qrcode: string | null;
  @ApiProperty({ example: '2026-11-29T15:00:00.000Z' }) updatedAt: string;
}

export class ApiInstanceQrcodeView implements ApiInstanceQrcodeDto {
  @ApiProperty({ enum: STATUSES, example: 'qrcode' }) status: ConnectionStatus;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'the QR code to scan (status qrcode); null while there is none yet (OPENING, DISCONNECTED: restart it first)',
  })
  qrcode: string | null;
}

export class ApiPairingCodeView implements ApiPairingCodeDto {
  @ApiProperty({
    example: 'ABCD-1234',
    description: 'to type on the phone (Linked devices > Link with phone number), as WhatsApp shows it',
  })
  pairingCode: string;
}

export class ApiInstanceActionView implements ApiInstanceActionDto {
  @ApiProperty({ example: 'Restarting the session.' }) message: string;
}
