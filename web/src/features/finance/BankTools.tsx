import { useState } from 'react';
import { secondaryButton } from '../../components/fields/styles';
import type { ResourceMeta } from '../../lib/resources/metaFields';
import { permissionsFor } from '../../lib/resources/permissions';
import { useSession } from '../../lib/session';
import { BalancesDialog, RemittanceDialog, ReturnDialog, TransferDialog } from './BankDialogs';

interface Props {
  meta: ResourceMeta;
  metas: ResourceMeta[];
}

type Open = 'remessa' | 'retorno' | 'saldos' | 'transferencia' | null;

/**
 * What a bank accounts list (/bancos) and the bank movements list (/movimentacaobancaria) show
 * beside their add button. On the accounts: the slips' bank files ('Gerar remessa',
 * 'Processar retorno'); on both: the balances of a period and a transfer between two accounts.
 * Each dialog asks for the account. Writing needs the screen's update permission.
 */
function AccountTools({ meta, metas, files }: Props & { files: boolean }) {
  const perms = permissionsFor(useSession(), meta);
  const [open, setOpen] = useState<Open>(null);
  if (!perms.canView) return null;
  const close = () => setOpen(null);
  const button = (what: Exclude<Open, null>, text: string, testId: string) => (
    <button type="button" className={secondaryButton} data-testid={testId} onClick={() => setOpen(what)}>
      {text}
    </button>
  );
  return (
    <>
      {files && perms.canUpdate && button('remessa', 'Gerar remessa', 'banco-gerar-remessa')}
      {files && perms.canUpdate && button('retorno', 'Processar retorno', 'banco-processar-retorno')}
      {button('saldos', 'Saldos por período', 'banco-saldos')}
      {perms.canCreate && button('transferencia', 'Transferência entre contas', 'banco-transferencia')}
      {open === 'remessa' && <RemittanceDialog metas={metas} onClose={close} />}
      {open === 'retorno' && <ReturnDialog metas={metas} onClose={close} />}
      {open === 'saldos' && <BalancesDialog metas={metas} onClose={close} />}
      {open === 'transferencia' && <TransferDialog metas={metas} onClose={close} />}
    </>
  );
}

/** /bancos: remittance, return, balances and transfer. */
export default function BankTools(props: Props) {
  return <AccountTools {...props} files />;
}

/** /movimentacaobancaria: balances and transfer. */
export function MovementTools(props: Props) {
  return <AccountTools {...props} files={false} />;
}
