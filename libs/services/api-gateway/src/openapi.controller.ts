import { Controller, Get, Header } from '@nestjs/common';
import { buildOpenApiDocument } from './openapi';

/** The OpenAPI document, public like any API reference: it describes routes, not data. Built when first asked for. */
@Controller('api/v1')
export class OpenApiController {
  private document?: string;

  @Get('openapi.json')
  @Header('Content-Type', 'application/json; charset=utf-8')
  @Header('Cache-Control', 'public, max-age=300')
  openapi(): string {
    this.document ??= JSON.stringify(buildOpenApiDocument());
    return this.document;
  }
}
