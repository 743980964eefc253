import { Controller, Get, Header } from '@nestjs/common';
import { buildOpenApiDocument } from './openapi';

/** The OpenAPI document, public like any API reference: it describes routes, not data. */
@Controller('api/v1')
export class OpenApiController {
  private readonly document = JSON.stringify(buildOpenApiDocument());

  @Get('openapi.json')
  @Header('Content-Type', 'application/json; charset=utf-8')
  @Header('Cache-Control', 'public, max-age=300')
  openapi(): string {
    return this.document;
  }
}
