// A QR code drawn in the browser as SVG (the qrcode library loads only when one is shown).
import { useEffect, useState } from 'react';

export function QrCode({ text, label }: { text: string; label: string }) {
  const [svg, setSvg] = useState('');
  useEffect(() => {
    let live = true;
    void import('qrcode').then(async (qr) => {
      const markup = await qr.toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 1 });
      if (live) setSvg(markup);
    });
    return () => {
      live = false;
    };
  }, [text]);
  // The markup is the library's own output for our text: paths only, no text content.
  return <div className="qr" role="img" aria-label={label} dangerouslySetInnerHTML={{ __html: svg }} />;
}
