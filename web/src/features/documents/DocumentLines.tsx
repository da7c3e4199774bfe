import { useMutation } from '@apollo/client';
import { useEffect, useMemo, useState } from 'react';
import { useDialogs } from '../../components/dialogs/DialogHost';
import { ItemPicker } from '../../components/picker/ItemPicker';
import type { SelectedItem } from '../../components/picker/pickerState';
import type { Row } from '../../components/tables/types';
import { errorMessage } from '../../lib/apollo';
import { notify } from '../../lib/toast';
import { ResourceCreateDocument, ResourceDeleteDocument, ResourceUpdateDocument } from '../registers/documents';
import { useCompanyId } from '../registers/useRegisterData';
import { describe, LineTable } from './LineTable';
import { lineId, lineWhere, num, type DocSpec, type LineSpec } from './specs';
import { useLines, usePickerLoad, useProductTexts } from './useDocumentData';

interface Props {
  spec: DocSpec;
  line: LineSpec;
  header: Row;
  editable: boolean;
  /** Changes when something else changed the lines (a conversion, a reload). */
  version: number;
  /** After every line write: the header's totals are the server's, read them again. */
  onChanged: () => void;
}

const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** The data a new line is created with: the parent's key, the item, the quantity and its price. */
export function newLineData(spec: DocSpec, line: LineSpec, header: Row, item: SelectedItem): Record<string, unknown> {
  return {
    ...lineWhere(line, spec, header),
    [line.item]: item.id,
    [line.qty]: item.quantity,
    ...(line.price ? { [line.price]: item.monetary } : {}),
  };
}

/** One line register of a document: its table, the picker that adds to it, edits and deletes. */
export function DocumentLines({ spec, line, header, editable, version, onChanged }: Props) {
  const emp = useCompanyId();
  const dialogs = useDialogs();
  const { rows, refetch } = useLines(spec, line, header);
  const load = usePickerLoad(line.kind);
  const texts = useProductTexts(useMemo(() => (line.desc ? [] : rows.map((r) => r[line.item])), [line, rows]));
  const [picking, setPicking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [create] = useMutation(ResourceCreateDocument);
  const [update] = useMutation(ResourceUpdateDocument);
  const [remove] = useMutation(ResourceDeleteDocument);

  useEffect(() => {
    if (version > 0) void refetch();
  }, [version, refetch]);

  const launched = useMemo(() => rows.map((r) => r[line.item] as string | number), [rows, line]);

  const after = async () => {
    await refetch();
    onChanged();
  };

  const write = async (work: () => Promise<unknown>, done?: string) => {
    setBusy(true);
    try {
      await work();
      if (done) notify.success(done);
    } catch (e) {
      notify.error(errorMessage(e));
    } finally {
      await after().catch(() => undefined);
      setBusy(false);
    }
  };

  const add = (items: SelectedItem[]) =>
    write(
      async () => {
        for (const item of items) {
          const same = item.group ? rows.find((r) => String(r[line.item]) === String(item.id)) : undefined;
          if (same && line.editable.includes('qty')) {
            await update({
              variables: {
                name: line.resource,
                emp,
                id: lineId(line, same),
                data: { [line.qty]: num(same[line.qty]) + item.quantity },
              },
            });
          } else {
            await create({ variables: { name: line.resource, emp, data: newLineData(spec, line, header, item) } });
          }
        }
      },
      items.length === 1 ? 'Item adicionado com sucesso!' : 'Itens adicionados com sucesso!',
    );

  const edit = (row: Row, column: string, value: number) =>
    write(() => update({ variables: { name: line.resource, emp, id: lineId(line, row), data: { [column]: value } } }));

  const askDelete = (row: Row) =>
    dialogs.confirm({
      title: 'Excluir item',
      text: `Deseja excluir "${describe(line, row, texts)}"?`,
      okText: 'Excluir',
      onOk: () =>
        write(
          () => remove({ variables: { name: line.resource, emp, id: lineId(line, row) } }),
          'Item excluído com sucesso!',
        ),
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
          blockStock={spec.blockStock && line.kind === 'product'}
          ungroup
          launchedIds={launched}
        />
      )}
    </>
  );
}
