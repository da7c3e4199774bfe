import { useEffect, useMemo, useRef, useState } from 'react';
import { useDialogs } from '../../components/dialogs/DialogHost';
import { primaryButton, secondaryButton } from '../../components/fields/styles';
import { FormView, fieldsOf } from '../../components/form/FormView';
import { useFormState } from '../../components/form/useFormState';
import { PdfPreview, useShownFile } from '../../components/PdfPreview';
import { errorMessage } from '../../lib/apollo';
import { usePageMeta } from '../../lib/pageMeta';
import { isNotice, saveFile } from '../../lib/restForms';
import { useCompanyId, useOptionLookup, useOptionSearch, useResourceMetas } from '../../lib/resources/useResourceData';
import { notify } from '../../lib/toast';
import { filterGroups, initialValues, reportBody } from './filters';
import { ReportTable } from './ReportTable';
import { reportDocument, type SentFormat } from './sendReport';
import type { ReportDefinition, ReportFormat, ReportResult } from './types';
import { useReportCall } from './useReport';

export const EMPTY_REPORT = 'Nenhum registro encontrado para os filtros informados.';

type View =
  | { kind: 'idle' }
  | { kind: 'running'; format: ReportFormat }
  | { kind: 'table'; result: ReportResult }
  | { kind: 'empty' }
  | { kind: 'pdf' }
  | { kind: 'xlsx'; name: string }
  | { kind: 'error'; message: string };

const RUNNING_TEXT: Record<ReportFormat, string> = {
  json: 'Gerando relatório...',
  pdf: 'Gerando PDF...',
  xlsx: 'Gerando planilha...',
};

/** The call whose result the screen shows: its body (the filters applied) and its format. */
interface Applied {
  body: Record<string, unknown>;
  format: ReportFormat;
}

/** The route name the shell knows the screen by: 'Index…' shows the favourite star. */
export const reportRouteName = (def: ReportDefinition) =>
  `Index${def.NOME.charAt(0).toUpperCase()}${def.NOME.slice(1)}`;

/**
 * A report the server defines: its filters (the generic form's fields; the period is this month
 * to start with), 'Gerar' (the rows on screen), 'PDF' (shown in the page with its download link)
 * and 'Excel' (the spreadsheet downloaded). A report takes as long as the server needs: a
 * spinner shows meanwhile and the buttons wait. A result on screen may be sent by e-mail (as the
 * spreadsheet when that was the last format asked, else as the PDF) or by WhatsApp (the PDF): the
 * server runs the report again with the filters of that result.
 */
export default function ReportPage({ def }: { def: ReportDefinition }) {
  usePageMeta(def.TITULO, reportRouteName(def));
  const emp = useCompanyId();
  const { metas } = useResourceMetas();
  const search = useOptionSearch(metas);
  const lookup = useOptionLookup(metas);
  const groups = useMemo(() => filterGroups(def), [def]);
  const fields = useMemo(() => fieldsOf(groups), [groups]);
  const [initial] = useState(() => initialValues(def));
  const form = useFormState(fields, initial);
  const [view, setView] = useState<View>({ kind: 'idle' });
  const [applied, setApplied] = useState<Applied | null>(null);
  const dialogs = useDialogs();
  const [pdf, showPdf] = useShownFile();
  const call = useReportCall();
  const live = useRef(true);
  useEffect(() => {
    live.current = true;
    return () => {
      live.current = false;
    };
  }, []);

  const running = view.kind === 'running';

  const run = async (format: ReportFormat) => {
    if (running || !form.validateAll()) return;
    const body = reportBody(def, form.values, emp, format);
    setView({ kind: 'running', format });
    setApplied(null);
    showPdf(null);
    try {
      const answer = await call(def, body, format);
      if (!live.current) return;
      if (answer.format === 'json') {
        const result = answer.result;
        if (!result || result.dados.length === 0) {
          setView({ kind: 'empty' });
          return;
        }
        setView({ kind: 'table', result });
      } else if (!answer.file) {
        setView({ kind: 'empty' });
        return;
      } else if (answer.format === 'pdf') {
        showPdf(answer.file);
        setView({ kind: 'pdf' });
      } else {
        saveFile(answer.file);
        setView({ kind: 'xlsx', name: answer.file.name });
      }
      setApplied({ body, format });
    } catch (e) {
      if (!live.current) return;
      const message = errorMessage(e);
      if (isNotice(e)) notify.warning(message);
      else notify.error(message);
      setView({ kind: 'error', message });
    }
  };

  // What is sent: the result on screen, as the format last asked (the rows on screen: the PDF).
  const sent: SentFormat = applied?.format === 'xlsx' ? 'xlsx' : 'pdf';
  const sendEmail = () => {
    if (!applied) return;
    const document = reportDocument(def, applied.body, sent);
    dialogs.email({ subject: document.label, document });
  };
  const sendWhatsapp = () => {
    if (applied) dialogs.whatsapp({ document: reportDocument(def, applied.body, 'pdf') });
  };

  return (
    <div className="space-y-4">
      <form
        noValidate
        aria-label={`Filtros: ${def.TITULO}`}
        className="space-y-3 rounded bg-white p-4 shadow-sm"
        onSubmit={(e) => {
          e.preventDefault();
          void run('json');
        }}
      >
        <FormView form={form} groups={groups} search={search} lookup={lookup} editable={!running} />
        <div className="flex flex-wrap justify-end gap-2 border-t border-slate-200 pt-3">
          <button type="submit" className={primaryButton} disabled={running} data-testid="relatorio-gerar">
            Gerar
          </button>
          <button
            type="button"
            className={secondaryButton}
            disabled={running}
            data-testid="relatorio-pdf"
            title={`PDF A4 ${def.ORIENTACAO}`}
            onClick={() => void run('pdf')}
          >
            PDF
          </button>
          <button
            type="button"
            className={secondaryButton}
            disabled={running}
            data-testid="relatorio-excel"
            onClick={() => void run('xlsx')}
          >
            Excel
          </button>
          {applied && !running && (
            <>
              <button
                type="button"
                className={secondaryButton}
                data-testid="relatorio-enviar-email"
                title={sent === 'xlsx' ? 'Envia a planilha do relatório gerado' : 'Envia o PDF do relatório gerado'}
                onClick={sendEmail}
              >
                Enviar por e-mail
              </button>
              <button
                type="button"
                className={secondaryButton}
                data-testid="relatorio-enviar-whatsapp"
                title="Envia o PDF do relatório gerado"
                onClick={sendWhatsapp}
              >
                Enviar por WhatsApp
              </button>
            </>
          )}
        </div>
      </form>

      <section aria-label="Resultado" aria-busy={running}>
        {view.kind === 'running' && (
          <div role="status" data-testid="relatorio-carregando" className="flex items-center justify-center gap-3 p-8">
            <span
              aria-hidden="true"
              className="h-6 w-6 animate-spin rounded-full border-2 border-primary border-t-transparent"
            />
            <span className="text-sm font-medium text-primary">{RUNNING_TEXT[view.format]}</span>
          </div>
        )}
        {view.kind === 'table' && <ReportTable def={def} result={view.result} />}
        {view.kind === 'empty' && (
          <p
            role="status"
            data-testid="relatorio-vazio"
            className="rounded bg-white p-6 text-center text-sm text-slate-600 shadow-sm"
          >
            {EMPTY_REPORT}
          </p>
        )}
        {view.kind === 'pdf' && pdf && <PdfPreview file={pdf} title={def.TITULO} />}
        {view.kind === 'xlsx' && (
          <p role="status" className="rounded bg-white p-4 text-center text-sm text-slate-700 shadow-sm">
            Planilha <strong>{view.name}</strong> baixada.
          </p>
        )}
        {view.kind === 'error' && (
          <p role="alert" data-testid="relatorio-erro" className="rounded bg-red-50 p-4 text-center text-sm text-error">
            {view.message}
          </p>
        )}
      </section>
    </div>
  );
}
