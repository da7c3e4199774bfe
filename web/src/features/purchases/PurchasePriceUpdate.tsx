import { useState } from 'react';
import { secondaryButton } from '../../components/fields/styles';
import { rowIf, type AnyRow } from '../../lib/api';
import type { DocumentRegister, ResourceMeta } from '../../lib/resources/metaFields';
import { permissionsFor } from '../../lib/resources/permissions';
import { useSession } from '../../lib/session';
import { PURCHASES, type Purchase } from './importAnswer';
import { PriceUpdateDialog } from './PriceUpdateDialog';

interface Props {
  meta: DocumentRegister;
  metas: ResourceMeta[];
  record: AnyRow;
}

/** A purchase whose status label is of the cancelled tone: the server updates nothing by it. */
function cancelled(meta: DocumentRegister, purchase: Purchase): boolean {
  const status = meta.document.status;
  if (!status) return false;
  return status.labels.some((l) => l.value === (purchase.COMP_SITUACAO ?? '') && l.tone === 'cancelled');
}

/**
 * On a saved purchase's screen, beside its buttons (open or finalized: a finalized purchase
 * gives its stored landed cost): 'Atualizar custos e preços', for users who may change purchases.
 */
export default function PurchasePriceUpdate({ meta, record }: Props) {
  const session = useSession();
  const [open, setOpen] = useState(false);
  const purchase = rowIf(PURCHASES, meta.name, record);
  if (!purchase || !permissionsFor(session, meta).canUpdate) return null;
  return (
    <>
      <button
        type="button"
        className={secondaryButton}
        disabled={cancelled(meta, purchase)}
        onClick={() => setOpen(true)}
      >
        Atualizar custos e preços
      </button>
      {open && <PriceUpdateDialog meta={meta} purchase={purchase} onClose={() => setOpen(false)} />}
    </>
  );
}
