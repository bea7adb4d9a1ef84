import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ApiCaller, PublicApi, type ApiIdentity } from '@wa/auth';
import type { ApiInstanceActionDto, ApiInstanceDto, ApiInstanceQrcodeDto, ApiPairingCodeDto } from '@wa/contracts';
import { ApiInstanceActionView, ApiInstanceQrcodeView, ApiInstanceView, ApiPairingCodeBody, ApiPairingCodeView } from './instance.dto.js';
import { InstanceService } from './instance.service.js';

const NOT_FOUND = 'ERR_NO_WAPP_FOUND: the connection was deleted';

/**
 * The public API's instance control (issue 45 §3, what Evolution API's integrators expect): `Authorization: Bearer
 * <the connection's API token>`, the instance being the token's connection. The gateway admits the token and the
 * company's plan (useExternalApi) as for the messages API, and passes the call here with a signed identity in its place.
 */
@ApiTags('public instance API')
@ApiBearerAuth()
@Controller('api/v1/instance')
export class InstanceController {
  constructor(private readonly instances: InstanceService) {}

  @PublicApi()
  @Get()
  @ApiOperation({ summary: "The token's connection: its status, paired number and, while it waits for a scan, its QR code" })
  @ApiResponse({ status: 200, type: ApiInstanceView, description: '{ id, name, status, number, qrcode, updatedAt }' })
  @ApiResponse({ status: 404, description: NOT_FOUND })
  instance(@ApiCaller() api: ApiIdentity): Promise<ApiInstanceDto> {
    return this.instances.instance(api);
  }

  @PublicApi()
  @Get('qrcode')
  @ApiOperation({ summary: 'The QR code to scan while the connection waits for a pairing' })
  @ApiResponse({
    status: 200,
    type: ApiInstanceQrcodeView,
    description: '{ status, qrcode }: the QR code while the status is qrcode (it changes every few seconds: ask again), else null',
  })
  @ApiResponse({ status: 404, description: NOT_FOUND })
  @ApiResponse({ status: 409, description: 'ERR_WAPP_ALREADY_CONNECTED: the connection is paired; there is nothing to scan' })
  qrcode(@ApiCaller() api: ApiIdentity): Promise<ApiInstanceQrcodeDto> {
    return this.instances.qrcode(api);
  }

  @PublicApi()
  @Post('pairing-code')
  @HttpCode(200)
  @ApiOperation({ summary: "A pairing code, the QR code's alternative: typed on the phone whose number is given" })
  @ApiResponse({
    status: 200,
    type: ApiPairingCodeView,
    description: '{ pairingCode }: XXXX-XXXX, to type on the phone (WhatsApp > Linked devices > Link with phone number)',
  })
  @ApiResponse({
    status: 400,
    description: 'ERR_VALIDATION: number is not 10 to 15 digits; ERR_WAPP_NOT_INITIALIZED: the connection is not waiting for a pairing',
  })
  @ApiResponse({ status: 404, description: NOT_FOUND })
  @ApiResponse({ status: 409, description: 'ERR_WAPP_ALREADY_CONNECTED: the connection is paired already' })
  pairingCode(@ApiCaller() api: ApiIdentity, @Body() body: ApiPairingCodeBody): Promise<ApiPairingCodeDto> {
    return this.instances.pairingCode(api, body.number);
  }

  @PublicApi()
  @Post('restart')
  @HttpCode(202)
  @ApiOperation({ summary: 'The session closes and opens again, its pairing kept (a session that is down starts)' })
  @ApiResponse({
    status: 202,
    type: ApiInstanceActionView,
    description: '{ message }: restarting; the status follows (GET /api/v1/instance, the connection.status webhook)',
  })
  @ApiResponse({ status: 404, description: NOT_FOUND })
  async restart(@ApiCaller() api: ApiIdentity): Promise<ApiInstanceActionDto> {
    await this.instances.restart(api);
    return { message: 'Restarting the session.' };
  }

  @PublicApi()
  @Post('logout')
  @HttpCode(202)
  @ApiOperation({ summary: "The phone is unlinked and the session stops (status DISCONNECTED), as the console's disconnect" })
  @ApiResponse({ status: 202, type: ApiInstanceActionView, description: '{ message }: logged out; the status is DISCONNECTED' })
  @ApiResponse({ status: 404, description: NOT_FOUND })
  async logout(@ApiCaller() api: ApiIdentity): Promise<ApiInstanceActionDto> {
    await this.instances.logout(api);
    return { message: 'Session disconnected.' };
  }
}
