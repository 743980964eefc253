/* What the browser does with a file's bytes once the API client has read them (ApiClient.readBytes). */

/** Hands bytes to the browser as a download named `filename` (the bytes never leave memory for another origin). */
export function saveAs(bytes: Blob, filename: string): void {
  const url = URL.createObjectURL(bytes);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started by the next task; the URL is no longer needed.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Bytes as a `data:` URL (the only images the CSP allows besides the console's own): for a preview. */
export function dataUrlOf(bytes: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read'));
    reader.readAsDataURL(bytes);
  });
}
