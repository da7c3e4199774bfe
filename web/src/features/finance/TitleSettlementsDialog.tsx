import { useState } from 'react';
import { useDialogs } from '../../components/dialogs/DialogHost';
import { DialogFrame } from '../../components/dialogs/DialogFrame';
import { LoadingScreen } from '../../components/dialogs/LoadingScreen';
import { useSendDocument } from '../../components/dialogs/useSendDocument';
import { dangerButton, primaryButton, secondaryButton } from '../../components/fields/styles';
import { PdfPreview, useShownFile } from '../../components/PdfPreview';
import { toId } from '../../lib/api';
import { errorMessage } from '../../lib/apollo';
import { formatDate, formatMoney, formatTimestamp, toCents } from '../../lib/format';
import { MSG } from '../../lib/messages';
import { isTrue, type ResourceMeta } from '../../lib/resources/metaFields';
import { notify } from '../../lib/toast';
import { titleName, titleValue, type TitleColumns, type TitleRow } from './titles';
import { useReceipt, useTitleSettlements, type Settlement } from './useTitleCalls';

interface Props {
  meta: ResourceMeta;
  metas: ResourceMeta[];
  cols: TitleColumns;
  title: TitleRow;
  /** The user may reverse settlements (the register's update permission). */
  canReverse: boolean;
  /** The receipt can be sent by e-mail or WhatsApp (the receivables: the server produces it by title). */
  canSendReceipt?: boolean;
  onClose: () => void;
}

const money = (v: unknown) => formatMoney(toCents(v) / 100);
const th = 'whitespace-nowrap bg-primary px-2 py-1.5 text-left text-xs font-semibold uppercase text-white';
const td = 'whitespace-nowrap px-2 py-1.5';

/**
 * A title's settlements (newest first): while one stands, its receipt and its
 * reversal ('Estornar', confirmed first: the title reopens and the bank movement is undone).
 */
export function TitleSettlementsDialog({ meta, metas, cols, title, canReverse, canSendReceipt, onClose }: Props) {
  const dialogs = useDialogs();
  const { data, loading, error, reverse } = useTitleSettlements(meta, metas, titleValue(title, cols, 'key'));
  const loadReceipt = useReceipt(meta);
  const sendDocument = useSendDocument();
  const [receipt, showReceipt] = useShownFile();
  const [receiptOf, setReceiptOf] = useState<unknown>(null);
  const rows = data ?? [];
  const titleKey = toId(titleValue(title, cols, 'key'));
  // The server sends the receipt of the title's latest settlement that stands and moved money.
  const hasReceipt = rows.some((s) => !isTrue(s.BAIX_ESTORNADA) && toCents(s.BAIX_TOTAL) > 0);
  const receiptMessage =
    canSendReceipt && hasReceipt && titleKey !== undefined
      ? {
          document: {
            kind: 'recibo' as const,
            id: titleKey,
            label: `Recibo da última baixa do ${titleName(title, cols)}`,
          },
          row: title,
          customerId: titleValue(title, cols, 'person'),
        }
      : null;

  const print = async (id: unknown) => {
    setReceiptOf(id);
    try {
      showReceipt(await loadReceipt(id));
    } catch (e) {
      setReceiptOf(null);
      notify.error(errorMessage(e));
    }
  };

  const askReverse = (s: Settlement) =>
    dialogs.confirm({
      title: 'Estornar baixa',
      text:
        `Deseja estornar a baixa nº ${String(s.BAIX_ID)} de ${money(s.BAIX_TOTAL)}?\n` +
        'O título volta a ficar em aberto e o movimento bancário é estornado.',
      okText: 'Estornar',
      onOk: async () => {
        try {
          notify.success(await reverse(s.BAIX_ID));
          if (receiptOf === s.BAIX_ID) showReceipt(null);
        } catch (e) {
          notify.error(errorMessage(e));
        }
      },
    });

  return (
    <DialogFrame
      title={`Baixas do ${titleName(title, cols)}`}
      onClose={onClose}
      width={1000}
      footer={
        <button type="button" className={primaryButton} onClick={onClose}>
          Fechar
        </button>
      }
    >
      {loading && !data ? (
        <LoadingScreen />
      ) : error != null && !data ? (
        <p role="alert" className="text-sm text-error">
          {errorMessage(error)}
        </p>
      ) : rows.length === 0 ? (
        <p className="py-4 text-center text-sm text-slate-500">{MSG.tableEmpty}</p>
      ) : (
        <>
          {receiptMessage && (
            <div className="mb-3 flex flex-wrap justify-end gap-2">
              <button type="button" className={secondaryButton} onClick={() => void sendDocument.email(receiptMessage)}>
                Enviar recibo por e-mail
              </button>
              <button
                type="button"
                className={secondaryButton}
                onClick={() => void sendDocument.whatsapp(receiptMessage)}
              >
                Enviar recibo por WhatsApp
              </button>
            </div>
          )}
          <div className="overflow-x-auto rounded border border-slate-200">
            <table className="min-w-full text-sm">
              <thead>
                <tr>
                  {['Baixa', 'Data', 'Valor', 'Juros', 'Multa', 'Desconto', 'Total', 'Conta', 'Forma', 'Situação'].map(
                    (h) => (
                      <th key={h} scope="col" className={th}>
                        {h}
                      </th>
                    ),
                  )}
                  <th scope="col" className={`${th} text-right`}>
                    Ações
                  </th>
                </tr>
              </thead>
              <tbody>
                {rows.map((s, i) => {
                  const reversed = isTrue(s.BAIX_ESTORNADA);
                  return (
                    <tr key={String(s.BAIX_ID)} className={i % 2 ? 'bg-slate-50' : 'bg-white'}>
                      <td className={td}>{String(s.BAIX_ID)}</td>
                      <td className={td}>{formatDate(String(s.BAIX_DTA ?? ''))}</td>
                      <td className={`${td} text-right`}>{money(s.BAIX_VALOR)}</td>
                      <td className={`${td} text-right`}>{money(s.BAIX_JUROS)}</td>
                      <td className={`${td} text-right`}>{money(s.BAIX_MULTA)}</td>
                      <td className={`${td} text-right`}>{money(s.BAIX_DESCONTO)}</td>
                      <td className={`${td} text-right font-medium`}>{money(s.BAIX_TOTAL)}</td>
                      <td className={td}>{String(s.BCO_DESCRICAO ?? '')}</td>
                      <td className={td}>{String(s.FRMP_DESCRICAO ?? '')}</td>
                      <td className={`${td} ${reversed ? 'text-error' : ''}`}>
                        {reversed
                          ? `Estornada${s.BAIX_DTA_ESTORNO ? ` em ${formatTimestamp(String(s.BAIX_DTA_ESTORNO))}` : ''}`
                          : 'Ativa'}
                      </td>
                      <td className={`${td} space-x-1 text-right`}>
                        {/* A reversed settlement, or one that moved no money, has no receipt. */}
                        {!reversed && toCents(s.BAIX_TOTAL) > 0 && (
                          <button
                            type="button"
                            className={secondaryButton}
                            disabled={receiptOf === s.BAIX_ID && !receipt}
                            onClick={() => void print(s.BAIX_ID)}
                          >
                            Imprimir recibo
                          </button>
                        )}
                        {canReverse && !reversed && (
                          <button type="button" className={dangerButton} onClick={() => askReverse(s)}>
                            Estornar
                          </button>
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        </>
      )}
      {receipt && (
        <div className="mt-3">
          <PdfPreview file={receipt} title={`Recibo da baixa nº ${String(receiptOf)}`} />
        </div>
      )}
    </DialogFrame>
  );
}
