import { useId, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { DialogFrame } from '../../components/dialogs/DialogFrame';
import { primaryButton, secondaryButton } from '../../components/fields/styles';
import { ItemPicker } from '../../components/picker/ItemPicker';
import type { SelectedItem } from '../../components/picker/pickerState';
import { cellText } from '../../components/tables/types';
import { errorMessage } from '../../lib/apollo';
import { notify } from '../../lib/toast';
import { encodeId, listColumns, type DocumentRegister, type ResourceMeta } from '../../lib/resources/metaFields';
import { usePickerLoad } from '../../lib/resources/pickerLoad';
import { labelText } from '../../lib/resources/recordLabel';
import { useReferenceTexts } from '../../lib/resources/useResourceData';
import {
  IMPORTED,
  isPending,
  itemColumns,
  itemFields,
  itemId,
  matchText,
  productDraft,
  productLine,
  purchaseScreen,
  type ImportAnswer,
  type Purchase,
  type PurchaseItem,
} from './importAnswer';
import { useCreateItemProduct, useImportXml, useLineMeta, useLinkItem } from './useImportXml';

interface Props {
  meta: DocumentRegister;
  metas: ResourceMeta[];
  onClose: () => void;
}

const noop = () => undefined;
const th = 'whitespace-nowrap bg-primary px-2.5 py-2 text-left text-xs font-semibold uppercase text-white';
const td = 'px-2.5 py-1.5 align-middle';

/** The purchase an import created: its list columns (supplier, number, series, dates, total, status). */
function PurchaseSummary({
  meta,
  metas,
  purchase,
}: {
  meta: DocumentRegister;
  metas: ResourceMeta[];
  purchase: Purchase;
}) {
  const rows = useMemo(() => [purchase], [purchase]);
  const texts = useReferenceTexts(meta, metas, rows);
  const columns = listColumns(meta, texts).map((c) =>
    c.key === meta.labelField ? { ...c, format: (v: unknown) => labelText(meta, v) } : c,
  );
  const number = String(purchase.COMP_ID ?? '');
  return (
    <section aria-label="Compra importada" className="space-y-2">
      <h3 className="text-base font-semibold text-slate-800">
        {meta.title} nº {number} importada
      </h3>
      <dl className="grid grid-cols-2 gap-2 text-sm sm:grid-cols-4">
        {columns.map((c) => (
          <div key={c.key}>
            <dt className="text-xs text-slate-500">{c.label}</dt>
            <dd>{cellText(c, purchase) || '-'}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/**
 * 'Importar XML': uploads an NF-e XML (POST /compra/uploads/{emp}, field `file`), shows the open
 * purchase the server created, its warnings and its items with how each was matched to a
 * product; an item without one is linked to an existing product (the item picker) or becomes a
 * new product ('Cadastrar produto'). 'Abrir compra' opens the purchase's screen.
 */
export function ImportXmlDialog({ meta, metas, onClose }: Props) {
  const navigate = useNavigate();
  const inputId = useId();
  const line = productLine(meta);
  const { lineMeta, settled } = useLineMeta(line);
  const fields = useMemo(() => itemFields(line, lineMeta), [line, lineMeta]);
  const upload = useImportXml(meta);
  const link = useLinkItem(line);
  const createProduct = useCreateItemProduct(metas, line);
  const load = usePickerLoad('product');

  const [file, setFile] = useState<File | null>(null);
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [answer, setAnswer] = useState<ImportAnswer | null>(null);
  const [items, setItems] = useState<PurchaseItem[]>([]);
  const [linkedHere, setLinkedHere] = useState<ReadonlySet<string>>(new Set());
  const [picking, setPicking] = useState<PurchaseItem | null>(null);
  const [working, setWorking] = useState<string | null>(null);

  const keyOf = (item: PurchaseItem) => encodeId(itemId(line, item));
  const columns = useMemo(() => itemColumns(line, lineMeta, fields, items), [line, lineMeta, fields, items]);
  const pending = items.filter((i) => isPending(line, i)).length;

  const send = async () => {
    if (!file) return;
    setSending(true);
    setError(null);
    try {
      const a = await upload(file);
      setAnswer(a);
      setItems(a.itens);
      notify.success(IMPORTED);
    } catch (e) {
      const message = errorMessage(e);
      setError(message);
      notify.error(message);
    } finally {
      setSending(false);
    }
  };

  // One item at a time: the answered line replaces it, and it counts as linked here.
  const write = async (item: PurchaseItem, work: () => Promise<PurchaseItem>, done: string) => {
    const key = keyOf(item);
    setWorking(key);
    try {
      const next = await work();
      setItems((list) => list.map((i) => (keyOf(i) === key ? next : i)));
      setLinkedHere((s) => new Set(s).add(key));
      notify.success(done);
    } catch (e) {
      notify.error(errorMessage(e));
    } finally {
      setWorking(null);
    }
  };

  const linkTo = (item: PurchaseItem, chosen: SelectedItem[]) => {
    if (chosen.length > 1) notify.warning('Vinculado ao primeiro produto selecionado.');
    const product = chosen[0];
    if (product) void write(item, () => link(item, product.id), 'Produto vinculado ao item.');
  };

  const create = (item: PurchaseItem) =>
    void write(
      item,
      async () => (await createProduct(item, productDraft(fields, item))).item,
      'Produto cadastrado e vinculado ao item.',
    );

  const openPurchase = () => {
    if (!answer) return;
    const { href, state } = purchaseScreen(meta, answer.compra);
    navigate(href, { state });
    onClose();
  };

  const footer = answer ? (
    <>
      <button type="button" className={secondaryButton} onClick={onClose}>
        Fechar
      </button>
      <button type="button" className={primaryButton} onClick={openPurchase} disabled={working !== null}>
        Abrir compra
      </button>
    </>
  ) : (
    <>
      <button type="button" className={secondaryButton} onClick={onClose} disabled={sending}>
        Cancelar
      </button>
      <button type="button" className={primaryButton} onClick={() => void send()} disabled={!file || sending}>
        {sending ? 'Importando...' : 'Importar'}
      </button>
    </>
  );

  return (
    <>
      {/* Escape in the picker closes the picker only. */}
      <DialogFrame title="Importar XML da NF-e" onClose={picking ? noop : onClose} width={1240} footer={footer}>
        {!answer ? (
          <div className="space-y-2">
            <label htmlFor={inputId} className="block text-xs font-medium text-slate-600">
              Arquivo XML da NF-e
            </label>
            <input
              id={inputId}
              type="file"
              accept=".xml,text/xml,application/xml"
              className="block w-full text-sm"
              disabled={sending}
              onChange={(e) => {
                setFile(e.target.files?.[0] ?? null);
                setError(null);
              }}
            />
            <p className="text-xs text-slate-500">
              NF-e modelo 55, layout 4.00 (o XML autorizado, nfeProc, ou a NFe). A compra é criada em aberto.
            </p>
            {error && (
              <p role="alert" className="rounded bg-red-50 p-2 text-sm text-error">
                {error}
              </p>
            )}
          </div>
        ) : (
          <div className="space-y-4">
            <PurchaseSummary meta={meta} metas={metas} purchase={answer.compra} />
            {answer.avisos.length > 0 && (
              <ul aria-label="Avisos" className="space-y-1 rounded bg-amber-50 p-2 text-sm text-amber-900">
                {answer.avisos.map((a) => (
                  <li key={a}>{a}</li>
                ))}
              </ul>
            )}
            <section aria-label="Itens da nota" className="space-y-2">
              <h3 className="text-base font-semibold text-primary">
                Itens da nota ({items.length}) {pending > 0 ? `- ${pending} sem produto` : ''}
              </h3>
              {pending > 0 && (
                <p role="note" className="text-sm text-slate-600">
                  Vincule cada item novo a um produto existente ou cadastre-o: a compra só é finalizada com todos os
                  itens vinculados.
                </p>
              )}
              <div className="overflow-x-auto">
                <table className="w-full border-collapse text-sm">
                  <thead>
                    <tr>
                      {columns.map((c) => (
                        <th key={c.key} className={`${th} ${c.align === 'right' ? 'text-right' : ''}`}>
                          {c.label}
                        </th>
                      ))}
                      <th className={th}>Vínculo</th>
                      <th className={th}>
                        <span className="sr-only">Ações</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {items.map((item, i) => {
                      const key = keyOf(item);
                      const isNew = isPending(line, item);
                      // A product is made of what the line metadata says the item holds: wait for it.
                      const busy = working !== null || !settled;
                      return (
                        <tr key={`${key}-${i}`} className={i % 2 ? 'bg-slate-50' : ''}>
                          {columns.map((c) => (
                            <td
                              key={c.key}
                              className={`${td} ${c.align === 'right' ? 'text-right' : ''} ${c.nowrap ? 'whitespace-nowrap' : ''}`}
                            >
                              {cellText(c, item)}
                            </td>
                          ))}
                          <td className={td}>
                            <span
                              data-testid="match"
                              className={`rounded-full px-2 py-0.5 text-xs font-semibold ${
                                isNew ? 'bg-amber-100 text-amber-800' : 'bg-emerald-100 text-emerald-800'
                              }`}
                            >
                              {matchText(line, item, linkedHere.has(key))}
                            </span>
                          </td>
                          <td className={`${td} whitespace-nowrap text-right`}>
                            {isNew && (
                              <div className="flex justify-end gap-1">
                                <button
                                  type="button"
                                  className={secondaryButton}
                                  disabled={busy}
                                  onClick={() => setPicking(item)}
                                >
                                  Vincular produto
                                </button>
                                <button
                                  type="button"
                                  className={primaryButton}
                                  disabled={busy}
                                  onClick={() => create(item)}
                                >
                                  Cadastrar produto
                                </button>
                              </div>
                            )}
                          </td>
                        </tr>
                      );
                    })}
                  </tbody>
                </table>
              </div>
            </section>
          </div>
        )}
      </DialogFrame>
      {picking && (
        <ItemPicker
          itemName="Produto"
          load={load}
          onSave={(chosen) => linkTo(picking, chosen)}
          onClose={() => setPicking(null)}
        />
      )}
    </>
  );
}
