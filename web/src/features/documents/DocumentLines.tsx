import { useMemo, useState } from 'react';
import { useDialogs } from '../../components/dialogs/DialogHost';
import { ItemPicker } from '../../components/picker/ItemPicker';
import type { SelectedItem } from '../../components/picker/pickerState';
import { valueOf, type AnyRow } from '../../lib/api';
import { errorMessage } from '../../lib/apollo';
import { notify } from '../../lib/toast';
import type { DocumentRegister } from '../../lib/resources/metaFields';
import type { DocumentLine } from './documentMeta';
import { describe, LineTable } from './LineTable';
import { useLines, usePickerLoad, useProductTexts } from './useDocumentData';
import { useAddLines, useDeleteLine, useEditLine } from './useLineWrites';

interface Props {
  meta: DocumentRegister;
  line: DocumentLine;
  header: AnyRow;
  editable: boolean;
}

const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** One line register of a document: its table, the picker that adds to it, edits and deletes. */
export function DocumentLines({ meta, line, header, editable }: Props) {
  const dialogs = useDialogs();
  const { rows } = useLines(meta, line, header);
  const load = usePickerLoad(line.kind);
  const item = line.item;
  // Product lines without a description column show the product's own (transfers, requisitions).
  const texts = useProductTexts(
    useMemo(
      () => (line.desc || !item || line.kind !== 'product' ? [] : rows.map((r) => valueOf(r, item))),
      [line, item, rows],
    ),
  );
  const [picking, setPicking] = useState(false);
  const [busy, setBusy] = useState(false);
  const addLines = useAddLines(meta, line);
  const editLine = useEditLine(meta, line);
  const deleteLine = useDeleteLine(meta, line);

  const launched = useMemo(
    () =>
      item
        ? rows
            .map((r) => valueOf(r, item))
            .filter((v): v is string | number => typeof v === 'string' || typeof v === 'number')
        : [],
    [rows, item],
  );

  // The hooks bring the lines and the header's totals up to date; this only reports.
  const write = async (work: () => Promise<unknown>, done?: string) => {
    setBusy(true);
    try {
      await work();
      if (done) notify.success(done);
    } catch (e) {
      notify.error(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  const add = (items: SelectedItem[]) =>
    write(
      () => addLines(header, rows, items),
      items.length === 1 ? 'Item adicionado com sucesso!' : 'Itens adicionados com sucesso!',
    );

  const edit = (row: AnyRow, column: string, value: number) => write(() => editLine(row, column, value));

  const askDelete = (row: AnyRow) =>
    dialogs.confirm({
      title: 'Excluir item',
      text: `Deseja excluir "${describe(line, row, texts)}"?`,
      okText: 'Excluir',
      onOk: () => write(() => deleteLine(row), 'Item excluído com sucesso!'),
    });

  return (
    <>
      <LineTable
        line={line}
        rows={rows}
        texts={texts}
        editable={editable}
        busy={busy}
        onAdd={() => setPicking(true)}
        onEdit={(r, c, v) => void edit(r, c, v)}
        onDelete={askDelete}
      />
      {picking && (
        <ItemPicker
          itemName={capitalize(line.itemName)}
          load={load}
          onSave={(items) => void add(items)}
          onClose={() => setPicking(false)}
          blockStock={meta.document.blockStock && line.kind === 'product'}
          ungroup
          launchedIds={launched}
        />
      )}
    </>
  );
}
