import { useRef, useState } from 'react';
import { primaryButton, secondaryButton } from '../../components/fields/styles';
import { errorMessage } from '../../lib/apollo';
import { useSession } from '../../lib/session';
import { notify } from '../../lib/toast';
import type { ResourceMeta } from '../../lib/resources/metaFields';
import { permissionsFor } from '../../lib/resources/permissions';
import { useManifestList } from './useManifest';

interface Props {
  meta: ResourceMeta;
  metas: ResourceMeta[];
}

/**
 * The NF-e manifest list's calls, beside its search (for users who may add to it): 'Buscar NF-e
 * na SEFAZ' fetches the NF-e issued against the company since the last one fetched, and
 * 'Enviar XML' adds an NF-e received otherwise. Each tells the server's message and reads the
 * list again.
 */
export default function ManifestTools({ meta }: Props) {
  const session = useSession();
  const { distribute, upload } = useManifestList();
  const [busy, setBusy] = useState<'buscar' | 'enviar' | null>(null);
  const picker = useRef<HTMLInputElement>(null);
  if (!permissionsFor(session, meta).canCreate) return null;

  const fetchFromSefaz = async () => {
    setBusy('buscar');
    try {
      const { message, warnings } = await distribute();
      notify.success(message, warnings.length > 0 ? warnings.join('\n') : undefined);
    } catch (e) {
      notify.error(errorMessage(e));
    } finally {
      setBusy(null);
    }
  };

  const send = async (file: File | undefined) => {
    if (!file) return;
    setBusy('enviar');
    try {
      notify.success(await upload(file));
    } catch (e) {
      notify.error(errorMessage(e));
    } finally {
      setBusy(null);
      // The same file may be sent again.
      if (picker.current) picker.current.value = '';
    }
  };

  return (
    <>
      <button type="button" className={primaryButton} disabled={busy !== null} onClick={() => void fetchFromSefaz()}>
        {busy === 'buscar' ? 'Buscando na SEFAZ...' : 'Buscar NF-e na SEFAZ'}
      </button>
      <button
        type="button"
        className={secondaryButton}
        disabled={busy !== null}
        onClick={() => picker.current?.click()}
      >
        {busy === 'enviar' ? 'Enviando...' : 'Enviar XML'}
      </button>
      <input
        ref={picker}
        type="file"
        aria-label="Arquivo XML da NF-e"
        accept=".xml,text/xml,application/xml"
        className="hidden"
        onChange={(e) => void send(e.target.files?.[0])}
      />
    </>
  );
}
