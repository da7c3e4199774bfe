import { useState } from 'react';
import { secondaryButton } from '../../components/fields/styles';
import { useSession } from '../../lib/session';
import { isDocument, type ResourceMeta } from '../../lib/resources/metaFields';
import { permissionsFor } from '../../lib/resources/permissions';
import { ImportXmlDialog } from './ImportXmlDialog';

interface Props {
  meta: ResourceMeta;
  metas: ResourceMeta[];
}

/** The purchases list's 'Importar XML' button and its dialog (for users who may create purchases). */
export default function PurchaseImport({ meta, metas }: Props) {
  const session = useSession();
  const [open, setOpen] = useState(false);
  if (!isDocument(meta) || !permissionsFor(session, meta).canCreate) return null;
  return (
    <>
      <button type="button" className={secondaryButton} onClick={() => setOpen(true)}>
        Importar XML
      </button>
      {open && <ImportXmlDialog meta={meta} metas={metas} onClose={() => setOpen(false)} />}
    </>
  );
}
