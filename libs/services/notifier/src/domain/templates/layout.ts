import type { Locale } from '../notification-kinds';

/**
 * The one HTML wrapper every built-in email uses: inline styles only, since
 * mail clients drop style sheets. The subject template doubles as the title.
 */
export function htmlLayout(lang: Locale, title: string, body: string, footer: string): string {
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
</head>
<body style="margin:0;padding:24px 12px;background:#f1f3f5;font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#1f2328">
<div style="max-width:600px;margin:0 auto;padding:24px;background:#ffffff;border-radius:6px">
${body}
<p style="margin:24px 0 0;padding-top:12px;border-top:1px solid #e1e4e8;font-size:12px;color:#6a737d">${footer}</p>
</div>
</body>
</html>
`;
}
