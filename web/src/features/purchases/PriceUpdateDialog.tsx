import { useState } from 'react';
import { DialogFrame } from '../../components/dialogs/DialogFrame';
import { primaryButton, secondaryButton } from '../../components/fields/styles';
import { FormView, fieldsOf } from '../../components/form/FormView';
import { useFormState } from '../../components/form/useFormState';
import { errorMessage } from '../../lib/apollo';
import type { DocumentRegister } from '../../lib/resources/metaFields';
import type { Purchase } from './importAnswer';
import { notify } from '../../lib/toast';
import {
  change,
  errorText,
  marginText,
  priceUpdateBody,
  priceUpdateGroups,
  priceUpdateStart,
  skippedText,
  type PriceUpdateAnswer,
  type UpdatedProduct,
} from './priceUpdate';
import { usePriceUpdate } from './usePriceUpdate';

interface Props {
  meta: DocumentRegister;
  purchase: Purchase;
  onClose: () => void;
}

const FIELDS = fieldsOf(priceUpdateGroups);
const th = 'whitespace-nowrap bg-primary px-2.5 py-2 text-left text-xs font-semibold uppercase text-white';
const td = 'px-2.5 py-1.5 align-middle';

/** The products the call updated: cost and sale price before and after, and the margin used. */
function UpdatedProducts({ rows }: { rows: UpdatedProduct[] }) {
  return (
    <div className="overflow-x-auto">
      <table aria-label="Produtos atualizados" className="w-full border-collapse text-sm">
        <thead>
          <tr>
            <th className={th}>Produto</th>
            <th className={`${th} text-right`}>Custo</th>
            <th className={`${th} text-right`}>Margem</th>
            <th className={`${th} text-right`}>Preço de venda</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((p, i) => (
            <tr key={String(p.PROD_ID ?? i)} className={i % 2 ? 'bg-slate-50' : ''}>
              <td className={td}>
                {String(p.PROD_ID ?? '')}
                {p.PROD_DESCRICAO ? ` - ${String(p.PROD_DESCRICAO)}` : ''}
              </td>
              <td className={`${td} whitespace-nowrap text-right`}>{change(p.PROD_CUSTO_ANTERIOR, p.PROD_CUSTO)}</td>
              <td className={`${td} whitespace-nowrap text-right`}>{marginText(p.PROD_MARGEM)}</td>
              <td className={`${td} whitespace-nowrap text-right`}>{change(p.PROD_VALOR_ANTERIOR, p.PROD_VALOR)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A titled list of what the call left out or could not do. */
function Notes({ title, lines, tone }: { title: string; lines: string[]; tone: 'warning' | 'error' }) {
  if (lines.length === 0) return null;
  const colours = tone === 'error' ? 'bg-red-50 text-error' : 'bg-amber-50 text-amber-900';
  return (
    <section aria-label={title} className={`space-y-1 rounded p-2 text-sm ${colours}`}>
      <h3 className="font-semibold">{title}</h3>
      <ul className="list-inside list-disc">
        {lines.map((line, i) => (
          <li key={`${line}-${i}`}>{line}</li>
        ))}
      </ul>
    </section>
  );
}

/**
 * 'Atualizar custos e preços': asks an optional margin and whether the sale price follows it,
 * sends the purchase to `atualizacaogeral` and shows what changed. A refusal (a cancelled
 * purchase, a user who may not change products, a margin out of range) is a toast and the
 * dialog stays, so the user may change the margin and try again.
 */
export function PriceUpdateDialog({ meta, purchase, onClose }: Props) {
  const form = useFormState(FIELDS, priceUpdateStart);
  const { update, loading } = usePriceUpdate(meta);
  const [answer, setAnswer] = useState<PriceUpdateAnswer | null>(null);

  const send = async () => {
    if (!form.validateAll()) return;
    try {
      setAnswer(await update(priceUpdateBody(purchase.COMP_ID, form.values)));
    } catch (e) {
      notify.error(errorMessage(e));
    }
  };

  const footer = answer ? (
    <button type="button" className={primaryButton} onClick={onClose}>
      Fechar
    </button>
  ) : (
    <>
      <button type="button" className={secondaryButton} onClick={onClose} disabled={loading}>
        Cancelar
      </button>
      <button type="button" className={primaryButton} onClick={() => void send()} disabled={loading}>
        {loading ? 'Atualizando...' : 'Atualizar'}
      </button>
    </>
  );

  return (
    <DialogFrame title="Atualizar custos e preços" onClose={onClose} width={answer ? 900 : 600} footer={footer}>
      {!answer ? (
        <div className="space-y-3">
          <p className="text-sm text-slate-700">
            O custo de entrada dos itens da compra passa a ser o custo dos seus produtos. Sem margem informada, cada
            produto usa a sua.
          </p>
          <FormView form={form} groups={priceUpdateGroups} editable={!loading} />
        </div>
      ) : (
        <div className="space-y-3">
          <p role="status" className="text-sm font-medium text-slate-800">
            {answer.msg}
          </p>
          {answer.produtos.length > 0 && <UpdatedProducts rows={answer.produtos} />}
          <Notes title="Itens ignorados" lines={answer.ignorados.map(skippedText)} tone="warning" />
          <Notes title="Produtos não atualizados" lines={answer.erros.map(errorText)} tone="error" />
        </div>
      )}
    </DialogFrame>
  );
}
