import { useState } from 'react';
import { secondaryButton } from '../../components/fields/styles';
import type { Row } from '../../components/tables/types';
import type { DocumentRegister, ResourceMeta } from '../../lib/resources/metaFields';
import { permissionsFor } from '../../lib/resources/permissions';
import { useSession } from '../../lib/session';
import { PriceUpdateDialog } from './PriceUpdateDialog';

interface Props {
  meta: DocumentRegister;
  metas: ResourceMeta[];
  record: Row;
}

/** A purchase whose status label is of the cancelled tone: the server updates nothing by it. */
function cancelled(meta: DocumentRegister, record: Row): boolean {
  const status = meta.document.status;
  if (!status) return false;
  return status.labels.some((l) => l.value === String(record[status.field] ?? '') && l.tone === 'cancelled');
}

/**
 * On a saved purchase's screen, beside its buttons (open or finalized: a finalized purchase
 * gives its stored landed cost): 'Atualizar custos e preços', for users who may change purchases.
 */
export default function PurchasePriceUpdate({ meta, record }: Props) {
  const session = useSession();
  const [open, setOpen] = useState(false);
  if (!permissionsFor(session, meta).canUpdate) return null;
  return (
    <>
      <button
        type="button"
        className={secondaryButton}
        disabled={cancelled(meta, record)}
        onClick={() => setOpen(true)}
      >
        Atualizar custos e preços
      </button>
      {open && <PriceUpdateDialog meta={meta} purchase={record} onClose={() => setOpen(false)} />}
    </>
  );
}
