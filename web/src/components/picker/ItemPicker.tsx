import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { formatMoney, formatQuantity, parseBRNumber } from '../../lib/format';
import { MSG } from '../../lib/messages';
import { notify } from '../../lib/toast';
import { useDebouncedValue } from '../../lib/useDebounce';
import { DialogFrame } from '../dialogs/DialogFrame';
import { inputClass, primaryButton, secondaryButton } from '../fields/styles';
import {
  DEFAULT_UNIT,
  acceptGroup,
  decrement,
  increment,
  keyOf,
  quantityOf,
  selectedList,
  setQuantity,
  shouldLoadMore,
  totalOf,
  type Outcome,
  type PickerItem,
  type SelectedItem,
  type Selection,
} from './pickerState';

export interface PickerPage {
  items: PickerItem[];
  total: number;
}

export interface ItemPickerProps {
  /** 'Adicionar {itemName}'. */
  itemName: string;
  /** Pages are numbered from 0. */
  load: (page: number, filter: string) => Promise<PickerPage>;
  onSave: (items: SelectedItem[]) => void;
  onClose: () => void;
  blockStock?: boolean;
  ungroup?: boolean;
  launchedIds?: (string | number)[];
}

/** Full-screen mobile picker: search, paged list, quantities, total, FECHAR and SALVAR. */
export function ItemPicker({ itemName, load, onSave, onClose, blockStock, ungroup, launchedIds }: ItemPickerProps) {
  const [filter, setFilter] = useState('');
  const debounced = useDebouncedValue(filter, 300);
  const [items, setItems] = useState<PickerItem[]>([]);
  const [total, setTotal] = useState(0);
  const [page, setPage] = useState(0);
  const [loading, setLoading] = useState(false);
  const [selection, setSelection] = useState<Selection>({});
  const [ask, setAsk] = useState<{ item: PickerItem; quantity: number } | null>(null);
  const request = useRef(0);
  const rules = useMemo(
    () => ({ blockStock, ungroup, launched: new Set((launchedIds ?? []).map(String)) }),
    [blockStock, ungroup, launchedIds],
  );

  // Reads page p of the search f into the list (a newer request wins); whoever asks shows
  // the loading line first.
  const fetchPage = useCallback(
    (p: number, f: string) => {
      const id = ++request.current;
      return load(p, f).then(
        (res) => {
          if (id !== request.current) return;
          setItems((prev) => (p === 0 ? res.items : [...prev, ...res.items]));
          setTotal(res.total);
          setPage(p);
          setLoading(false);
        },
        () => {
          if (id !== request.current) return;
          notify.error(MSG.pickerLoadError);
          setLoading(false);
        },
      );
    },
    [load],
  );

  // A new search resets the list and the page to 0; the loading line shows from this render on.
  const [searched, setSearched] = useState<{ filter: string; load: typeof load } | null>(null);
  if (searched?.filter !== debounced || searched.load !== load) {
    setSearched({ filter: debounced, load });
    setLoading(true);
  }
  useEffect(() => {
    void fetchPage(0, debounced);
  }, [debounced, fetchPage]);

  const apply = (outcome: Outcome) => {
    if (outcome.kind === 'noStock') notify.warning(MSG.noStock);
    else if (outcome.kind === 'askGroup') setAsk({ item: outcome.item, quantity: outcome.quantity });
    else setSelection(outcome.selection);
  };

  const save = () => {
    const list = selectedList(selection);
    if (list.length === 0) {
      notify.warning(MSG.noItemSelected);
      return;
    }
    onSave(list);
    onClose();
  };

  return (
    <div
      role="dialog"
      aria-modal="true"
      aria-label={`Adicionar ${itemName}`}
      className="fixed inset-0 z-50 flex flex-col bg-white"
    >
      <header className="bg-primary px-4 py-3 text-white">
        <h2 className="text-lg font-semibold">Adicionar {itemName}</h2>
        <input
          type="search"
          aria-label="Pesquisar"
          placeholder="Pesquisar"
          className={`${inputClass} mt-2 text-slate-800`}
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
        />
        <p className="mt-1 text-xs">
          {total} {total === 1 ? 'item' : 'itens'}
        </p>
      </header>
      <ul
        data-testid="picker-list"
        className="flex-1 divide-y divide-slate-200 overflow-y-auto"
        onScroll={(e) => {
          if (!loading && shouldLoadMore(e.currentTarget, items.length, total)) {
            setLoading(true);
            void fetchPage(page + 1, debounced);
          }
        }}
      >
        {items.length === 0 && !loading && (
          <li className="p-6 text-center text-sm text-slate-500">Nenhum item encontrado...</li>
        )}
        {items.map((item) => {
          const q = quantityOf(selection, item);
          return (
            <li key={keyOf(item)} className="flex items-center gap-3 px-3 py-2">
              {item.image ? (
                <img src={item.image} alt="" className="h-12 w-12 shrink-0 rounded object-cover" />
              ) : (
                <div className="h-12 w-12 shrink-0 rounded bg-slate-200" aria-hidden="true" />
              )}
              <div className="min-w-0 flex-1">
                <p className="truncate text-sm font-medium">
                  {item.id} - {item.text}
                </p>
                <p className="text-xs text-slate-600">
                  {formatMoney(item.monetary)}
                  {item.stock != null && ` · EST: ${formatQuantity(item.stock)} ${item.unit ?? DEFAULT_UNIT}`}
                </p>
              </div>
              <div className="flex items-center gap-1">
                <button
                  type="button"
                  aria-label={`Diminuir ${item.text}`}
                  className={secondaryButton}
                  onClick={() => apply(decrement(selection, item, rules))}
                >
                  −
                </button>
                <input
                  aria-label={`Quantidade de ${item.text}`}
                  inputMode="decimal"
                  className={`${inputClass} w-16 text-center`}
                  value={q === 0 ? '' : formatQuantity(q)}
                  placeholder="0"
                  onChange={(e) => apply(setQuantity(selection, item, parseBRNumber(e.target.value) ?? 0, rules))}
                />
                <button
                  type="button"
                  aria-label={`Aumentar ${item.text}`}
                  className={secondaryButton}
                  onClick={() => apply(increment(selection, item, rules))}
                >
                  +
                </button>
              </div>
            </li>
          );
        })}
        {loading && <li className="p-3 text-center text-sm text-slate-500">Carregando...</li>}
      </ul>
      <footer className="flex items-center justify-between gap-2 border-t border-slate-200 px-4 py-3">
        <span className="text-sm font-medium">Valor total: {formatMoney(totalOf(selection))}</span>
        <div className="flex gap-2">
          <button type="button" className={secondaryButton} onClick={onClose}>
            FECHAR
          </button>
          <button type="button" className={primaryButton} onClick={save}>
            SALVAR
          </button>
        </div>
      </footer>
      {ask && (
        <DialogFrame
          title="Atenção"
          onClose={() => setAsk(null)}
          footer={
            <>
              <button type="button" className={secondaryButton} onClick={() => setAsk(null)}>
                Não
              </button>
              <button
                type="button"
                className={primaryButton}
                onClick={() => {
                  setSelection((s) => acceptGroup(s, ask.item, ask.quantity));
                  setAsk(null);
                }}
              >
                Sim
              </button>
            </>
          }
        >
          <p className="text-sm">{MSG.groupItem}</p>
        </DialogFrame>
      )}
    </div>
  );
}
