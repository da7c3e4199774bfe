import { errorMessage } from '../../lib/apollo';
import { formatMoney } from '../../lib/format';
import type { ResourceMeta } from '../../lib/resources/metaFields';
import { useCreditPosition } from './useTitleCalls';

interface Props {
  meta: ResourceMeta;
  /** The customer on screen (its key's value). */
  id: unknown;
}

/**
 * On a customer's edit screen: the credit limit, what the open receivables use of it and the
 * credit still available (GET /clientes/limitecredito/{id}/{emp}).
 */
export default function CustomerCredit({ id }: Props) {
  const { data, error, loading } = useCreditPosition(id);
  return (
    <section aria-label="Posição financeira" className="rounded border border-slate-300 p-3">
      <h2 className="mb-2 text-sm font-semibold text-primary">Posição financeira</h2>
      {error != null && !data ? (
        <p role="alert" className="text-sm text-error">
          {errorMessage(error)}
        </p>
      ) : !data ? (
        <p className="text-sm text-slate-500">{loading ? 'Carregando...' : ''}</p>
      ) : (
        <dl className="grid grid-cols-1 gap-3 text-sm sm:grid-cols-3">
          <div>
            <dt className="text-xs text-slate-500">Limite de crédito</dt>
            <dd className="font-medium">{formatMoney(data.limit)}</dd>
          </div>
          <div>
            <dt className="text-xs text-slate-500">Saldo em aberto</dt>
            <dd className="font-medium">{formatMoney(data.used)}</dd>
          </div>
          <div>
            <dt className="text-xs text-slate-500">Crédito disponível</dt>
            <dd className={`font-semibold ${data.available < 0 ? 'text-error' : 'text-tertiary'}`}>
              {formatMoney(data.available)}
            </dd>
          </div>
        </dl>
      )}
    </section>
  );
}
