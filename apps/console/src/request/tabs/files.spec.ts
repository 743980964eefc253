import { artifactUploadHeaders, encodedHeaderText, formatBytes, isPreviewable, mediaTypeOf, shortHash } from './files';

describe('files in the request tabs', () => {
  it('says a size in bytes, KB, MB and GB, with one decimal under ten', () => {
    expect(formatBytes(0)).toBe('0 bytes');
    expect(formatBytes(1)).toBe('1 byte');
    expect(formatBytes(1023)).toBe('1023 bytes');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(20 * 1024 * 1024)).toBe('20 MB');
    expect(formatBytes(3 * 1024 ** 3)).toBe('3 GB');
    expect(formatBytes(-1)).toBe('');
  });

  it('shortens a hash to twelve digits and leaves a short text alone', () => {
    expect(shortHash('a'.repeat(64))).toBe(`${'a'.repeat(12)}…`);
    expect(shortHash('abc')).toBe('abc');
  });

  it('URL-encodes text headers, so a name with spaces, accents or a slash arrives as typed', () => {
    expect(encodedHeaderText('Jane’s export (ü).pdf')).toBe('Jane%E2%80%99s%20export%20(%C3%BC).pdf');
    expect(encodedHeaderText('a/b')).toBe('a%2Fb');
  });

  it('sends a file without a type the browser knows as plain bytes', () => {
    expect(mediaTypeOf({ type: 'application/pdf' })).toBe('application/pdf');
    expect(mediaTypeOf({ type: '' })).toBe('application/octet-stream');
  });

  it('builds the headers of an upload, leaving blank optional values to the API', () => {
    expect(artifactUploadHeaders({ filename: 'orders 2024.csv', mediaType: 'text/csv', title: '  ', type: '' })).toEqual({
      'x-artifact-filename': 'orders%202024.csv',
      'x-artifact-content-type': 'text/csv',
    });
    expect(artifactUploadHeaders({ filename: 'x.json', mediaType: 'application/json', title: 'Profile', type: 'profile_data', redactionReason: ' Third party names removed ' })).toEqual({
      'x-artifact-filename': 'x.json',
      'x-artifact-content-type': 'application/json',
      'x-artifact-title': 'Profile',
      'x-artifact-type': 'profile_data',
      'x-artifact-redaction-reason': 'Third%20party%20names%20removed',
    });
  });

  it('previews images only', () => {
    expect(isPreviewable('image/png')).toBe(true);
    expect(isPreviewable('IMAGE/JPEG; q=1')).toBe(true);
    expect(isPreviewable('application/pdf')).toBe(false);
    expect(isPreviewable('image/svg+xml')).toBe(false);
  });
});
