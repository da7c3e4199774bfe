import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useDialogs } from '../../components/dialogs/DialogHost';
import { secondaryButton } from '../../components/fields/styles';
import { rowIf, type AnyRow } from '../../lib/api';
import { errorMessage } from '../../lib/apollo';
import { isNotice } from '../../lib/restForms';
import { useSession } from '../../lib/session';
import { notify } from '../../lib/toast';
import { isDocument, type DocumentRegister, type ResourceMeta } from '../../lib/resources/metaFields';
import { permissionsFor } from '../../lib/resources/permissions';
import { IMPORTED, purchaseScreen } from './importAnswer';
import { canMakePurchase, MANIFEST, PURCHASES, type ManifestNfe } from './manifestPurchase';
import { useMakePurchase } from './useManifestPurchase';

interface Props {
  meta: DocumentRegister;
  metas: ResourceMeta[];
  record: AnyRow;
}

/**
 * 'Gerar Compra' on an NF-e of the manifest (for users who may create purchases): once asked,
 * the NF-e's XML becomes an open purchase (the purchases' XML import, with its notices), linked
 * to the NF-e, and the purchase's screen opens as after an import. Enabled for a whole NF-e
 * acknowledged or confirmed that is no purchase yet.
 */
export default function ManifestPurchase({ meta, metas, record }: Props) {
  const session = useSession();
  const nfe = rowIf(MANIFEST, meta.name, record);
  const purchases = metas.find((m) => m.name === PURCHASES);
  if (!nfe || !purchases || !isDocument(purchases) || !permissionsFor(session, purchases).canCreate) return null;
  return <MakePurchaseButton purchases={purchases} record={nfe} />;
}

function MakePurchaseButton({ purchases, record }: { purchases: DocumentRegister; record: ManifestNfe }) {
  const navigate = useNavigate();
  const dialogs = useDialogs();
  const make = useMakePurchase(purchases);
  const [busy, setBusy] = useState(false);

  const run = async () => {
    setBusy(true);
    try {
      const { answer, unlinked } = await make(record);
      notify.success(IMPORTED, answer.avisos.length > 0 ? answer.avisos.join('\n') : undefined);
      if (unlinked) notify.warning(`A compra foi gerada, mas a NF-e não foi vinculada a ela: ${unlinked}`);
      const { href, state } = purchaseScreen(purchases, answer.compra);
      navigate(href, { state });
    } catch (e) {
      if (isNotice(e)) notify.warning(e.message);
      else notify.error(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  const ask = () =>
    dialogs.confirm({
      title: 'Gerar compra',
      text: `Gerar uma compra em aberto da NF-e ${String(record.MAN_NUMERO ?? '')} de ${String(record.MAN_EMIT_NOME ?? '')}?`,
      okText: 'Gerar Compra',
      cancelText: 'Cancelar',
      onOk: () => void run(),
    });

  return (
    <button type="button" className={secondaryButton} disabled={busy || !canMakePurchase(record)} onClick={ask}>
      {busy ? 'Gerando compra...' : 'Gerar Compra'}
    </button>
  );
}
