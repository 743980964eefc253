import { createReadStream } from 'node:fs';
import { dirname, join } from 'node:path';
import { Controller, Get, Header, NotFoundException, Param, StreamableFile } from '@nestjs/common';

/**
 * The interactive API reference at /api/docs: Swagger UI (the files of swagger-ui-dist, served as they are) over the
 * document of /api/v1/openapi.json, which the page fetches. Nothing is built for it at start-up.
 */
const SWAGGER_UI_DIR = dirname(require.resolve('swagger-ui-dist/package.json'));

/** The files of swagger-ui-dist the page uses, with their media types; no other name is served. */
const ASSETS: Readonly<Record<string, string>> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>DSAR service API</title>
<link rel="stylesheet" href="/api/docs/swagger-ui.css">
<link rel="icon" type="image/png" href="/api/docs/favicon-32x32.png" sizes="32x32">
<link rel="icon" type="image/png" href="/api/docs/favicon-16x16.png" sizes="16x16">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/api/docs/swagger-ui-bundle.js"></script>
<script src="/api/docs/reference.js"></script>
</body>
</html>
`;

/** Starts Swagger UI on the published document (a file of its own: the page has no inline script). */
const START = `window.ui = SwaggerUIBundle({
  url: '/api/v1/openapi.json',
  dom_id: '#swagger-ui',
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
  persistAuthorization: false,
  displayOperationId: true,
});
`;

@Controller('api/docs')
export class ApiDocsController {
  @Get()
  @Header('Content-Type', 'text/html; charset=utf-8')
  @Header('Cache-Control', 'public, max-age=300')
  page(): string {
    return PAGE;
  }

  @Get('reference.js')
  @Header('Content-Type', 'application/javascript; charset=utf-8')
  @Header('Cache-Control', 'public, max-age=300')
  start(): string {
    return START;
  }

  @Get(':asset')
  @Header('Cache-Control', 'public, max-age=86400')
  asset(@Param('asset') name: string): StreamableFile {
    const type = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined;
    if (!type) throw new NotFoundException();
    return new StreamableFile(createReadStream(join(SWAGGER_UI_DIR, name)), { type });
  }
}
