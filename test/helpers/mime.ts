// Reads the parts of a MIME message as nodemailer writes it (multipart/mixed, related, alternative;
// base64 and quoted-printable), for tests that look inside report mail: the HTML, images, attachments.

export interface MimePart {
  headers: Record<string, string>;
  contentType: string;
  /** The decoded body. */
  body: Buffer;
  filename: string | undefined;
  cid: string | undefined;
}

function split(raw: string): { headers: Record<string, string>; body: string } {
  const at = raw.search(/\r?\n\r?\n/);
  const head = (at < 0 ? raw : raw.slice(0, at)).replace(/\r?\n[ \t]+/g, ' ');
  const headers: Record<string, string> = {};
  for (const line of head.split(/\r?\n/)) {
    const i = line.indexOf(':');
    if (i > 0) headers[line.slice(0, i).toLowerCase()] = line.slice(i + 1).trim();
  }
  return { headers, body: at < 0 ? '' : raw.slice(at).replace(/^\r?\n\r?\n/, '') };
}

function decode(body: string, encoding: string | undefined): Buffer {
  if (/base64/i.test(encoding ?? '')) return Buffer.from(body.replace(/\s+/g, ''), 'base64');
  if (/quoted-printable/i.test(encoding ?? '')) {
    const latin = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
    return Buffer.from(latin, 'latin1');
  }
  return Buffer.from(body, 'utf8');
}

const param = (header: string | undefined, name: string) => (header ? new RegExp(`${name}="?([^";]+)"?`, 'i').exec(header)?.[1] : undefined);

/** Every leaf part of a message, depth first. */
export function mimeParts(raw: string): MimePart[] {
  const { headers, body } = split(raw);
  const type = headers['content-type'] ?? 'text/plain';
  const boundary = param(type, 'boundary');
  if (/^multipart\//i.test(type) && boundary) {
    const chunks = body.split(`--${boundary}`).slice(1);
    return chunks.filter((c) => !c.startsWith('--')).flatMap((c) => mimeParts(c.replace(/^\r?\n/, '')));
  }
  const disposition = headers['content-disposition'];
  return [{
    headers,
    contentType: type.split(';')[0]!.trim().toLowerCase(),
    body: decode(body, headers['content-transfer-encoding']),
    filename: param(disposition, 'filename') ?? param(type, 'name'),
    cid: headers['content-id']?.replace(/^<|>$/g, ''),
  }];
}

/** The top-level headers of a message (unfolded, names in lower case). */
export const mimeHeaders = (raw: string) => split(raw).headers;
