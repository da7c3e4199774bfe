import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { CardList } from './CardList';
import { DataGrid } from './DataGrid';
import { mergeOrder, withOrdem } from './types';

const columns = [
  { key: 'CLI_ID', label: 'Código' },
  { key: 'CLI_DESCRICAO', label: 'Nome' },
];
const rows = [
  { CLI_ID: 1, CLI_DESCRICAO: 'Ana' },
  { CLI_ID: 2, CLI_DESCRICAO: 'Bruno' },
];
const rowKey = (r: Record<string, unknown>) => String(r.CLI_ID);

describe('row selection and tones', () => {
  const select = (picked: Set<number>) => ({
    isSelected: (r: Record<string, unknown>) => picked.has(Number(r.CLI_ID)),
    canSelect: (r: Record<string, unknown>) => r.CLI_ID !== 2,
    onChange: vi.fn(),
    onChangeAll: vi.fn(),
    label: (r: Record<string, unknown>) => `Selecionar ${String(r.CLI_DESCRICAO)}`,
  });

  it('picks a row, or every pickable row from the header, and tints the rows of a tone', async () => {
    const s = select(new Set([1]));
    render(
      <DataGrid
        columns={columns}
        rows={[...rows, { CLI_ID: 3, CLI_DESCRICAO: 'Carla' }]}
        rowKey={rowKey}
        select={s}
        tone={(r) => (r.CLI_ID === 3 ? 'danger' : undefined)}
      />,
    );
    expect(screen.getByRole('checkbox', { name: 'Selecionar Ana' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Selecionar Bruno' })).toBeDisabled();
    await userEvent.click(screen.getByRole('checkbox', { name: 'Selecionar Carla' }));
    expect(s.onChange).toHaveBeenCalledWith({ CLI_ID: 3, CLI_DESCRICAO: 'Carla' }, true);
    // Not every pickable row is chosen: the header picks them all (Bruno cannot be picked).
    await userEvent.click(screen.getByRole('checkbox', { name: 'Selecionar todos' }));
    expect(s.onChangeAll).toHaveBeenCalledWith(
      [
        { CLI_ID: 1, CLI_DESCRICAO: 'Ana' },
        { CLI_ID: 3, CLI_DESCRICAO: 'Carla' },
      ],
      true,
    );
    const carla = screen.getByRole('row', { name: /Carla/ });
    expect(carla).toHaveAttribute('data-tone', 'danger');
    expect(carla).toHaveClass('bg-red-50');
    expect(screen.getByRole('row', { name: /Ana/ })).not.toHaveAttribute('data-tone');
  });

  it('offers the same on mobile cards', async () => {
    const s = select(new Set());
    render(
      <CardList
        columns={columns}
        rows={rows}
        rowKey={rowKey}
        titleKey="CLI_DESCRICAO"
        select={s}
        tone={(r) => (r.CLI_ID === 1 ? 'danger' : undefined)}
      />,
    );
    await userEvent.click(screen.getByRole('checkbox', { name: 'Selecionar Ana' }));
    expect(s.onChange).toHaveBeenCalledWith(rows[0], true);
    expect(screen.getByRole('checkbox', { name: 'Selecionar Bruno' })).toBeDisabled();
    expect(screen.getAllByRole('listitem')[0]).toHaveAttribute('data-tone', 'danger');
  });
});

describe('DataGrid', () => {
  it("shows 'Nenhum item encontrado.' when empty", () => {
    render(<DataGrid columns={columns} rows={[]} rowKey={rowKey} />);
    expect(screen.getByText('Nenhum item encontrado.')).toBeInTheDocument();
  });
  it('stripes rows by ORDEM and sorts by header', async () => {
    const onSort = vi.fn();
    render(
      <DataGrid
        columns={columns}
        rows={rows}
        rowKey={rowKey}
        sort={{ key: 'CLI_DESCRICAO', dir: 'ASC' }}
        onSort={onSort}
      />,
    );
    const body = screen.getAllByRole('row').slice(1);
    expect(body[0]).toHaveClass('bg-white');
    expect(body[1]).toHaveClass('bg-slate-50');
    expect(screen.getByRole('columnheader', { name: /Nome/ })).toHaveAttribute('aria-sort', 'ascending');
    await userEvent.click(within(screen.getByRole('columnheader', { name: /Código/ })).getByRole('button'));
    expect(onSort).toHaveBeenCalledWith('CLI_ID');
  });
  it('uses a saved column order', () => {
    localStorage.setItem('colunas:clientes', JSON.stringify(['CLI_DESCRICAO', 'CLI_ID']));
    render(<DataGrid columns={columns} rows={rows} rowKey={rowKey} storageKey="clientes" />);
    const headers = screen.getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers).toEqual(['Nome', 'Código']);
  });
  it('decorates rows with alternating ORDEM and merges saved orders', () => {
    expect(withOrdem([{}, {}, {}]).map((r) => r.ORDEM)).toEqual([0, 1, 0]);
    expect(mergeOrder(['B', 'GONE', 'A'], ['A', 'B', 'C'])).toEqual(['B', 'A', 'C']);
  });
});

describe('CardList', () => {
  it('shows a card per row with the title column first', () => {
    render(<CardList columns={columns} rows={rows} rowKey={rowKey} titleKey="CLI_DESCRICAO" />);
    const cards = screen.getAllByRole('listitem');
    expect(cards).toHaveLength(2);
    expect(within(cards[0]).getByText('Ana')).toBeInTheDocument();
  });
});
