// The Content-Disposition of a download (RFC 6266): the name in UTF-8 for browsers, beside an ASCII
// fallback for the few clients that read only `filename`.

/** `attachment; filename="<ascii>"; filename*=UTF-8''<name>`. */
export function attachment(name: string): string {
  const ascii = name.normalize('NFKD').replace(/[^\x20-\x7e]/g, '').replace(/["\\]/g, '') || 'download';
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
