import { useCallback, useEffect, useRef, useState } from 'react';
import type { FetchedFile } from '../lib/rest';
import { secondaryButton } from './fields/styles';

/** A file on screen: its bytes, its name and the object URL the page shows it by. */
export interface ShownFile extends FetchedFile {
  url: string;
}

/**
 * The file a screen shows (a receipt PDF): `show` takes a fetched file (or null) and makes its
 * object URL; the previous URL is revoked when replaced, the last one when the screen goes.
 */
export function useShownFile(): [ShownFile | null, (file: FetchedFile | null) => void] {
  const [shown, setShown] = useState<ShownFile | null>(null);
  const url = useRef<string | null>(null);
  useEffect(
    () => () => {
      if (url.current) URL.revokeObjectURL(url.current);
    },
    [],
  );
  const show = useCallback((file: FetchedFile | null) => {
    if (url.current) URL.revokeObjectURL(url.current);
    const next = file ? { ...file, url: URL.createObjectURL(file.blob) } : null;
    url.current = next?.url ?? null;
    setShown(next);
  }, []);
  return [shown, show];
}

/**
 * A PDF shown in the page with its download link. Browsers that cannot show a PDF inline (most
 * phones) show the explanation instead; the link works everywhere.
 */
export function PdfPreview({ file, title }: { file: ShownFile; title: string }) {
  return (
    <div className="space-y-2">
      <object
        data={file.url}
        type="application/pdf"
        aria-label={title}
        className="h-[60dvh] min-h-72 w-full rounded border border-slate-200 bg-slate-100"
      >
        <p className="p-4 text-center text-sm text-slate-600">
          Este navegador não mostra o PDF aqui: use &quot;Baixar PDF&quot;.
        </p>
      </object>
      <div className="flex justify-end">
        <a className={secondaryButton} href={file.url} download={file.name}>
          Baixar PDF
        </a>
      </div>
    </div>
  );
}
